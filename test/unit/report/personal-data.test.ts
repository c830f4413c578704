import { describe, expect, it } from 'vitest'
import { maskCoordinate, maskPersonalData, maskText } from '../../../src/report/personal-data.js'
import { assertion, runResult, scenario, step } from '../../fixtures/report/build-result.js'

const point = (latitude: number, longitude: number, type = 'gps') => ({ timestamp: 0, altitude: 10, latitude, longitude, type })

function profileRun() {
  const path = [point(51.507222, -0.1275, 'start'), point(51.50801, -0.12901), point(51.50911, -0.13002), point(51.51, -0.131), point(51.5111, -0.1322, 'end')]
  const body = JSON.stringify({ type: 'Running', notes: 'morning run', path })
  return runResult([
    scenario({
      skipReason: undefined,
      steps: [
        step({
          request: { method: 'POST', url: 'http://127.0.0.1:4010/fitnessActivities', headers: {}, body },
          response: { status: 200, headers: {}, body: { name: 'Ada Lovelace', location: 'London, UK', athlete_type: 'Runner', path }, bodyBytes: 400 },
          curl: `curl -X POST 'http://127.0.0.1:4010/fitnessActivities' --data-binary '${body}'`,
          assertions: [
            assertion({ ok: false, target: 'body.location', matcher: 'equals', expected: 'Paris', actual: 'London, UK', message: 'body.location: expected equal to "Paris", got "London, UK"' }),
            assertion({ ok: false, target: 'body.path[0].latitude', matcher: 'equals', expected: 1, actual: 51.507222, message: 'body.path[0].latitude: expected 1, got 51.507222' }),
          ],
        }),
      ],
    }),
  ])
}

describe('maskPersonalData', () => {
  it('masks names and locations in response bodies and check values', () => {
    const masked = maskPersonalData(profileRun())
    const first = masked.scenarios[0]?.steps[0]
    expect(first?.response?.body).toMatchObject({ name: 'A… [masked]', location: 'L… [masked]', athlete_type: 'Runner' })
    expect(first?.assertions[0]?.actual).toBe('L… [masked]')
    expect(first?.assertions[0]?.message).toBe('body.location: expected equal to "Paris", got "L… [masked]"')
  })

  it('rounds coordinates and shortens GPS paths, in responses, requests, curl lines and messages', () => {
    const masked = maskPersonalData(profileRun())
    const first = masked.scenarios[0]?.steps[0]
    const path = (first?.response?.body as { path: unknown[] }).path
    expect(path).toHaveLength(4)
    expect(path[0]).toEqual({ timestamp: 0, altitude: 10, latitude: 51.5, longitude: -0.1, type: 'start' })
    expect(path[3]).toBe('… 2 more points hidden (personal data)')
    const requestPath = (JSON.parse(first?.request?.body ?? '{}') as { path: unknown[] }).path
    expect(requestPath[0]).toEqual({ timestamp: 0, altitude: 10, latitude: 51.5, longitude: -0.1, type: 'start' })
    const everything = JSON.stringify(masked)
    for (const secret of ['51.507222', '-0.1275', '51.50801', 'Lovelace', 'London']) expect(everything).not.toContain(secret)
    expect(first?.assertions[1]?.message).toBe('body.path[0].latitude: expected 1, got 51.5')
  })

  it('leaves the input untouched', () => {
    const result = profileRun()
    const before = JSON.stringify(result)
    maskPersonalData(result)
    expect(JSON.stringify(result)).toBe(before)
  })

  it('keeps values that are not personal', () => {
    const result = runResult([scenario()])
    expect(maskPersonalData(result)).toEqual(result)
  })
})

describe('maskText and maskCoordinate', () => {
  it.each([
    { text: 'Ada Lovelace', masked: 'A… [masked]' },
    { text: 'X', masked: '[masked]' },
    { text: '', masked: '[masked]' },
  ])('$text → $masked', ({ text, masked }) => {
    expect(maskText(text)).toBe(masked)
  })

  it.each([
    { value: 51.507222, masked: 51.5 },
    { value: -0.1275, masked: -0.1 },
    { value: 12, masked: 12 },
  ])('$value → $masked', ({ value, masked }) => {
    expect(maskCoordinate(value)).toBe(masked)
  })
})

describe('what is not personal data', () => {
  it('leaves a Location header alone', () => {
    const result = runResult([
      scenario({
        steps: [step({ assertions: [assertion({ ok: false, target: 'headers.location', matcher: 'relativeUri', expected: true, actual: 'http://h/fitnessActivities/7', message: 'headers.location: expected a relative URI, got "http://h/fitnessActivities/7"' })] })],
      }),
    ])
    expect(maskPersonalData(result)).toEqual(result)
  })
})
