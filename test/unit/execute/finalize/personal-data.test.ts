import { describe, expect, it } from 'vitest'
import { PROFILE_PERSONAL_FIELDS } from '../../../../src/model/personal-data-fields.js'
import { createConsoleReporter } from '../../../../src/report/console-reporter.js'
import { formatAssertion } from '../../../../src/report/text/format-diagnostic.js'
import {
  createRunMasking,
  CURL_MASKED_NOTE,
  DIFFERENCE_MASKED_NOTE,
  maskAltitude,
  maskCoordinate,
  maskPersonalData,
  maskText,
} from '../../../../src/execute/finalize/personal-data.js'
import {
  assertion,
  planOf,
  runResult,
  scenario,
  step,
  testScreen,
  reported,
} from '../../../fixtures/report/build-result.js'
import { createFinalizer } from '../../../../src/execute/finalize/finalize-run.js'

const point = (latitude: number, longitude: number, type = 'gps') => ({
  timestamp: 0,
  altitude: 10,
  latitude,
  longitude,
  type,
})

function profileRun() {
  const path = [
    point(51.507222, -0.1275, 'start'),
    point(51.50801, -0.12901),
    point(51.50911, -0.13002),
    point(51.51, -0.131),
    point(51.5111, -0.1322, 'end'),
  ]
  const body = JSON.stringify({ type: 'Running', notes: 'morning run', path })
  return runResult([
    scenario({
      skipReason: undefined,
      steps: [
        step({
          request: { method: 'POST', url: 'http://127.0.0.1:4010/fitnessActivities', headers: {}, body },
          response: {
            status: 200,
            headers: {},
            body: { name: 'Ada Lovelace', location: 'London, UK', athlete_type: 'Runner', path },
            bodyBytes: 400,
          },
          curl: `curl -X POST 'http://127.0.0.1:4010/fitnessActivities' --data-binary '${body}'`,
          assertions: [
            assertion({
              ok: false,
              target: 'body.location',
              matcher: 'equals',
              expected: 'Paris',
              actual: 'London, UK',
              message: 'body.location: expected equal to "Paris", got "London, UK"',
            }),
            assertion({
              ok: false,
              target: 'body.path[0].latitude',
              matcher: 'equals',
              expected: 1,
              actual: 51.507222,
              message: 'body.path[0].latitude: expected 1, got 51.507222',
            }),
          ],
        }),
      ],
    }),
  ])
}

describe('maskPersonalData', () => {
  it('masks every coordinate of a route of thousands of points wherever its number stands whole, and no longer number that contains it', () => {
    const path = Array.from({ length: 3_000 }, (_, i) => point(46.9479739 + i / 1e4, 7.4474468 + i / 1e4))
    const message = `latitude 46.9479739 at the start; 146.94797391 is another number; -7.4474468 mirrored`
    const run = runResult([
      scenario({
        skipReason: undefined,
        steps: [
          step({
            response: { status: 200, headers: {}, body: { path }, bodyBytes: 100_000 },
            assertions: [
              assertion({ ok: false, target: 'body.notes', matcher: 'equals', expected: 'x', actual: 'y', message }),
            ],
          }),
        ],
      }),
    ])
    const masked = maskPersonalData(run).scenarios[0]?.steps[0]?.assertions[0]?.message
    expect(masked).toBe(
      `latitude ${maskCoordinate(46.9479739)} at the start; 146.94797391 is another number; -${maskCoordinate(7.4474468)} mirrored`,
    )
  })

  it('masks names and locations in response bodies and check values', () => {
    const masked = maskPersonalData(profileRun())
    const first = masked.scenarios[0]?.steps[0]
    expect(first?.response?.body).toMatchObject({
      name: 'A… [masked]',
      location: 'L… [masked]',
      athlete_type: 'Runner',
    })
    expect(first?.assertions[0]?.actual).toBe('L… [masked]')
    // The expected side is masked like the actual one: it may have been captured from a response.
    expect(first?.assertions[0]?.expected).toBe('P… [masked]')
    expect(first?.assertions[0]?.message).toBe('body.location: expected equal to "P… [masked]", got "L… [masked]"')
  })

  it('rounds coordinates and shortens GPS paths, in responses, requests, curl lines and messages', () => {
    const masked = maskPersonalData(profileRun())
    const first = masked.scenarios[0]?.steps[0]
    const path = (first?.response?.body as { path: unknown[] }).path
    expect(path).toHaveLength(4)
    expect(path[0]).toEqual({ timestamp: 0, altitude: 0, latitude: 51.5, longitude: -0.1, type: 'start' })
    expect(path[3]).toBe('… 2 more points hidden (personal data)')
    const requestPath = (JSON.parse(first?.request?.body ?? '{}') as { path: unknown[] }).path
    expect(requestPath[0]).toEqual({ timestamp: 0, altitude: 0, latitude: 51.5, longitude: -0.1, type: 'start' })
    const everything = JSON.stringify(masked)
    for (const secret of ['51.507222', '-0.1275', '51.50801', 'Lovelace', 'London'])
      expect(everything).not.toContain(secret)
    expect(first?.assertions[1]?.message).toBe('body.path[0].latitude: expected 1, got 51.5')
  })

  it('masks the whole run as it did alone after seeing each scenario end, a value found in one scenario replaced in the texts of all', () => {
    const mentions = scenario({
      id: 'mentions',
      skipReason: undefined,
      steps: [
        step({
          assertions: [
            assertion({
              ok: false,
              target: 'status',
              matcher: 'equals',
              expected: 1,
              actual: 2,
              message: 'Ada Lovelace of London, UK',
            }),
          ],
        }),
      ],
    })
    const quiet = scenario({ id: 'quiet', skipReason: undefined, steps: [step({})] })
    const run = runResult([
      mentions,
      quiet,
      ...profileRun().scenarios,
      scenario({ id: 'never-seen', skipReason: 'about Ada Lovelace' }),
    ])
    const masking = createRunMasking()
    const events = run.scenarios.slice(0, 3).map((each) => masking.scenario(each))
    // Alone, the first scenario has no personal field to find its text's values by.
    expect(events[0]?.steps[0]?.assertions[0]?.message).toBe('Ada Lovelace of London, UK')
    const whole = masking.run(run)
    expect(JSON.stringify(whole)).toBe(JSON.stringify(maskPersonalData(run)))
    expect(whole.scenarios[0]?.steps[0]?.assertions[0]?.message).toBe('A… [masked] of L… [masked]')
    expect(whole.scenarios[3]?.skipReason).toBe('about A… [masked]')
    expect(whole.scenarios[1]).toBe(events[1])
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

describe('expected values', () => {
  // An activity read back after a create: its path was captured from the create's response.
  const path = [
    point(47.3769, 8.5417, 'start'),
    point(47.37701, 8.54188),
    point(47.37722, 8.54203),
    point(47.37745, 8.54231, 'end'),
  ]
  const COORDINATES = ['47.3769', '8.5417', '47.37701', '8.54188', '47.37722', '8.54203', '47.37745', '8.54231']

  function readBack(overrides: Partial<Parameters<typeof assertion>[0]> = {}) {
    const sent = JSON.stringify({ type: 'Running', path })
    return runResult([
      scenario({
        steps: [
          step({
            request: { method: 'GET', url: 'http://127.0.0.1:4010/fitnessActivities/7', headers: {} },
            response: { status: 200, headers: {}, body: { type: 'Walking', path }, bodyBytes: 300 },
            curl: `curl -i -sS -X PUT 'http://127.0.0.1:4010/fitnessActivities/7' --data-binary '${sent}'`,
            assertions: [
              assertion({
                ok: false,
                target: 'body',
                matcher: 'like',
                expected: { type: 'Running', path },
                actual: { type: 'Walking', path },
                message: `body: expected like ${JSON.stringify({ type: 'Running', path })}`,
                ...overrides,
              }),
            ],
          }),
        ],
      }),
    ])
  }

  it('masks a GPS path captured into an expected value like the actual one: equal points show no diff', () => {
    const masked = maskPersonalData(readBack())
    const check = masked.scenarios[0]?.steps[0]?.assertions[0]
    const pathOf = (value: unknown) => (value as { path: unknown[] }).path
    expect(pathOf(check?.expected)).toEqual(pathOf(check?.actual))
    expect(pathOf(check?.expected)[0]).toMatchObject({ latitude: 47.4, longitude: 8.5 })
    const text = formatAssertion(check!, { colors: false })
    expect(text).toContain('diff .type: expected "Running", actual "Walking"')
    expect(text).not.toContain('diff .path')
  })

  it('leaves no unmasked coordinate anywhere in the console output or the masked result', async () => {
    const result = readBack()
    const screen = testScreen()
    const reporter = createConsoleReporter({ screen, verbose: true })
    const plan = planOf(result)
    const final = reported(result)
    await reporter.onRunStart?.(plan)
    for (const each of result.scenarios)
      await reporter.onScenarioEnd?.(
        createFinalizer({ knownFailures: [], showPersonalData: false, rules: [] }).scenario(each),
      )
    await reporter.onRunEnd?.(final, plan)
    const output = `${screen.stdout()}${screen.stderr()}${JSON.stringify(final)}`
    expect(output).toContain('47.4')
    for (const coordinate of COORDINATES) expect(output).not.toContain(coordinate)
  })

  it('gives reporters a progress event whose every way of reading shows masked values only', () => {
    const raw = profileRun().scenarios[0]!
    const finalizer = createFinalizer({ knownFailures: [], showPersonalData: false, rules: [] })
    const masked = JSON.stringify(maskPersonalData(runResult([raw])).scenarios[0])
    for (const read of [
      (event: object) => JSON.stringify(event),
      (event: object) => JSON.stringify({ ...event }),
      (event: object) => JSON.stringify(structuredClone(event)),
    ]) {
      const shown = read(finalizer.scenario(raw))
      for (const personal of ['51.507222', 'Lovelace', 'London']) expect(shown).not.toContain(personal)
      expect(shown).toBe(masked)
    }
    const event = finalizer.scenario(raw)
    expect(event.steps[0]?.response?.body).toMatchObject({ name: 'A… [masked]', location: 'L… [masked]' })
    expect([event.id, event.status]).toEqual([raw.id, raw.status])
  })

  it('masks a captured coordinate in the expected value of any matcher, by value', () => {
    const masked = maskPersonalData(
      readBack({ target: 'body.path[0].latitude', matcher: 'every', expected: { equals: 47.3769 }, actual: 47.3769 }),
    )
    const check = masked.scenarios[0]?.steps[0]?.assertions[0]
    expect(check?.expected).toEqual({ equals: 47.4 })
    expect(check?.actual).toBe(47.4)
  })

  it('says when masking hid the only difference of a failed check', () => {
    const masked = maskPersonalData(
      readBack({
        target: 'body.name',
        matcher: 'equals',
        expected: 'Ada L.',
        actual: 'Ada Lovelace',
        message: 'body.name: expected equal to "Ada L.", got "Ada Lovelace"',
      }),
    )
    const check = masked.scenarios[0]?.steps[0]?.assertions[0]
    expect(check?.expected).toBe('A… [masked]')
    expect(check?.actual).toBe('A… [masked]')
    expect(check?.message).toBe(
      `body.name: expected equal to "A… [masked]", got "A… [masked]" ${DIFFERENCE_MASKED_NOTE}`,
    )
  })

  it('marks a curl line that masking changed, and only such a line', () => {
    const masked = maskPersonalData(readBack())
    const curl = masked.scenarios[0]?.steps[0]?.curl ?? ''
    expect(curl.split('\n')[0]).toBe(CURL_MASKED_NOTE)
    expect(curl).toContain('"latitude":47.4')
    const plain = maskPersonalData(runResult([scenario()]))
    expect(plain.scenarios[0]?.steps[0]?.curl).not.toContain(CURL_MASKED_NOTE)
  })
})

describe('the fields masked', () => {
  const PROFILE = {
    name: 'Ada Lovelace',
    location: 'London, UK',
    birthday: 'Sat, 10 Dec 1815 00:00:00',
    profile: 'https://example.org/users/ada-lovelace',
    small_picture: 'https://example.org/pictures/ada-small.jpg',
    normal_picture: 'https://example.org/pictures/ada-normal.jpg',
    medium_picture: 'https://example.org/pictures/ada-medium.jpg',
    large_picture: 'https://example.org/pictures/ada-large.jpg',
    athlete_type: 'Runner',
  }

  it.each(PROFILE_PERSONAL_FIELDS.map((field) => ({ field })))(
    'masks the profile field $field, as the proxy redacts it',
    ({ field }) => {
      const result = runResult([
        scenario({ steps: [step({ response: { status: 200, headers: {}, body: PROFILE, bodyBytes: 400 } })] }),
      ])
      const body = maskPersonalData(result).scenarios[0]?.steps[0]?.response?.body as Record<string, unknown>
      const original = PROFILE[field as keyof typeof PROFILE]
      expect(body[field]).toBe(maskText(original))
      expect(body.athlete_type).toBe('Runner')
    },
  )

  it('rounds altitude like the other path point fields', () => {
    const result = runResult([
      scenario({
        steps: [
          step({
            response: {
              status: 200,
              headers: {},
              body: { path: [point(47.3769, 8.5417)].map((p) => ({ ...p, altitude: 432.75 })) },
              bodyBytes: 100,
            },
          }),
        ],
      }),
    ])
    const body = maskPersonalData(result).scenarios[0]?.steps[0]?.response?.body as { path: Record<string, unknown>[] }
    expect(body.path[0]).toMatchObject({ latitude: 47.4, longitude: 8.5, altitude: 400 })
  })

  it("leaves the User record's relative profile link alone (§2.1), and URLs holding it", () => {
    const read = step({
      name: 'read the profile',
      request: { method: 'GET', url: 'http://127.0.0.1:4010/profile', headers: {} },
      curl: "curl -i -sS 'http://127.0.0.1:4010/profile'",
    })
    const result = runResult([scenario({ steps: [step(), read] })])
    expect(maskPersonalData(result)).toEqual(result)
  })
})

describe('maskText, maskCoordinate and maskAltitude', () => {
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

  it.each([
    { value: 432.75, masked: 400 },
    { value: 1450, masked: 1500 },
    { value: 10, masked: 0 },
  ])('altitude $value → $masked', ({ value, masked }) => {
    expect(maskAltitude(value)).toBe(masked)
  })
})

describe('what is not personal data', () => {
  it('leaves a Location header alone', () => {
    const result = runResult([
      scenario({
        steps: [
          step({
            assertions: [
              assertion({
                ok: false,
                target: 'headers.location',
                matcher: 'relativeUri',
                expected: true,
                actual: 'http://h/fitnessActivities/7',
                message: 'headers.location: expected a relative URI, got "http://h/fitnessActivities/7"',
              }),
            ],
          }),
        ],
      }),
    ])
    expect(maskPersonalData(result)).toEqual(result)
  })
})
