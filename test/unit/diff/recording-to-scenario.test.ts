import { describe, expect, it } from 'vitest'
import type { ExchangeEntry } from '../../../src/model/exchange.js'
import type { RecordedExchange } from '../../../proxy/reading/read-exchanges.js'
import { planReplay } from '../../../src/diff/recording-to-scenario.js'

let line = 0
function exchange(
  method: string,
  path: string,
  options: { body?: string; location?: string; status?: number; tokenId?: string } = {},
): RecordedExchange {
  line += 1
  const entry = {
    _id: line,
    _findings: [],
    _tokenId: options.tokenId ?? 'tok_a',
    startedDateTime: '2026-11-28T00:00:00.000Z',
    request: {
      method,
      url: `http://old.example:8080/api${path}`,
      headers: [
        { name: 'authorization', value: 'Bearer [redacted]' },
        ...(options.body
          ? [{ name: 'content-type', value: 'application/vnd.com.service.NewFitnessActivity+json' }]
          : []),
      ],
      cookies: [],
      queryString: [],
      ...(options.body ? { postData: { mimeType: 'application/json', text: options.body } } : {}),
    },
    response: {
      status: options.status ?? 200,
      headers: options.location ? [{ name: 'Location', value: options.location }] : [],
      cookies: [],
      content: { size: 0, mimeType: '' },
    },
  } as unknown as ExchangeEntry
  return { file: 'rec.ndjson', line, entry }
}

describe('planning a replay', () => {
  const plan = planReplay(
    [
      exchange('GET', '/user'),
      exchange('POST', '/fitnessActivities', {
        body: '{"type":"Running","notes":"morning ${x}"}',
        location: '/fitnessActivities/41',
        status: 201,
      }),
      exchange('PUT', '/fitnessActivities/41', { body: '{"notes":"evening"}' }),
      exchange('PUT', '/fitnessActivities/7', { body: '{"notes":"not ours"}' }),
      exchange('DELETE', '/fitnessActivities/7'),
      exchange('PUT', '/profile', { body: '{"athlete_type":"Runner"}' }),
      exchange('GET', '/fitnessActivities/7', { tokenId: 'tok_b' }),
    ],
    'rec.ndjson',
    { otherToken: false },
  )

  it('replays reads and creates, and writes only to what its own creates made', () => {
    expect(plan.scenario.steps.map((step) => `${step.request!.method} ${step.request!.url}`)).toEqual([
      'GET /user',
      'POST /fitnessActivities',
      'PUT ${created2}',
    ])
  })

  it('puts the run marker in the notes it writes and keeps recorded text literal', () => {
    const [, create, edit] = plan.scenario.steps
    expect(create!.request!.json).toEqual({ type: 'Running', notes: '${run.marker} morning $${x}' })
    expect(create!.creates).toBe('headers.location')
    expect(edit!.request!.json).toEqual({ notes: '${run.marker} evening' })
  })

  it('says what it left out and why, with the recording line', () => {
    expect(plan.skipped.map((s) => `${s.at} ${s.request}`)).toEqual([
      'rec.ndjson:4 PUT /fitnessActivities/7',
      'rec.ndjson:5 DELETE /fitnessActivities/7',
      'rec.ndjson:6 PUT /profile',
      'rec.ndjson:7 GET /fitnessActivities/7',
    ])
    expect(plan.skipped[0]!.reason).toContain('did not create')
    expect(plan.skipped[3]!.reason).toContain('--other-token')
    expect(plan.recordedBase).toBe('http://old.example:8080/api')
  })
})
