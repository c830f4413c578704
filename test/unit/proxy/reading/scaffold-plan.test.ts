import { describe, expect, it } from 'vitest'
import { matchEndpoint } from '../../../../src/spec/endpoints.js'
import { planScaffold } from '../../../../proxy/scaffold/plan-scenarios.js'
import type { ScaffoldEntry } from '../../../../proxy/scaffold/scaffold-exchange.js'
import type { Finding } from '../../../../src/model/exchange.js'

let nextId = 1
function x(
  method: string,
  path: string,
  status: number,
  extra: Partial<ScaffoldEntry> & { headers?: Record<string, string>; response?: Record<string, string> } = {},
): ScaffoldEntry {
  const { headers, response, ...rest } = extra
  return {
    id: nextId++,
    startedDateTime: '2026-01-01T00:00:00.000Z',
    method,
    path,
    query: [],
    endpoint: matchEndpoint(method, path),
    status,
    requestHeaders: new Map(Object.entries({ authorization: 'Bearer [redacted tok_1]', ...headers })),
    responseHeaders: new Map(Object.entries(response ?? {})),
    findings: [],
    tokenId: 'tok_1',
    hasAuthorization: true,
    ...rest,
  }
}

const irregular: Finding = {
  kind: 'irregularity',
  rule: 'IRREG-ITEM-URI-FORM',
  pointer: '/items/0/uri',
  side: 'response',
  message: 'm',
}

describe('planScaffold', () => {
  it('turns a create and what follows on the same activity into one flow with captured Location and Last-Modified', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, {
          response: { location: '/fitnessActivities/a1' },
          requestJson: { type: 'Running', notes: 'mine', post_to_net: true },
          headers: { 'content-type': 'application/vnd.com.service.NewFitnessActivity+json' },
        }),
        x('GET', '/fitnessActivities/a1', 200, { response: { 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' } }),
        x('GET', '/fitnessActivities/a1', 304, { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } }),
        x('DELETE', '/fitnessActivities/a1', 204),
        x('DELETE', '/fitnessActivities/zz', 204),
      ],
      { idPrefix: 'scaffold-t' },
    )
    const [flow] = plan.scenarios
    expect(plan.scenarios).toHaveLength(1)
    expect(flow?.steps.map((s) => (s.step.request as { url: string }).url)).toEqual([
      '/fitnessActivities',
      '${activity}',
      '${activity}',
      '${activity}',
    ])
    const create = flow?.steps[0]?.step as { creates: string; request: { json: Record<string, unknown> } }
    expect(create.creates).toBe('headers.location')
    expect(create.request.json).toMatchObject({ notes: '${run.marker} scaffolded', post_to_net: false })
    expect(flow?.steps[1]?.step.capture).toEqual({ lastModified1: 'headers.last-modified' })
    expect(flow?.steps[2]?.step).toMatchObject({
      request: { headers: { 'if-modified-since': '${lastModified1}' } },
      expect: { status: 304, noBody: true },
    })
    expect(plan.leftOut).toEqual([
      {
        exchange: expect.any(Number),
        reason: 'DELETE /fitnessActivities/zz: a write to an activity this recording did not create',
      },
    ])
  })

  it('collapses duplicates but keeps every exchange with a finding not seen before', () => {
    const feed = (findings: Finding[] = []) =>
      x('GET', '/fitnessActivities', 200, { query: [['pageSize', '4']], findings })
    const plan = planScaffold(
      [feed(), feed(), feed([irregular]), feed([irregular]), x('GET', '/user', 200), x('GET', '/user', 200)],
      { idPrefix: 'p' },
    )
    expect(plan.scenarios.map((s) => [s.kind, s.steps.length, s.represents])).toEqual([
      ['feed-paging', 2, 4],
      ['user', 1, 2],
    ])
  })

  it('collapses repeated flows of the same shape into one scenario, and keeps a flow with another finding apart', () => {
    const flow = (n: number, findings: Finding[] = []) => [
      x('POST', '/fitnessActivities', 201, {
        response: { location: `/fitnessActivities/f${n}` },
        requestJson: { type: 'Running', notes: `run ${n}` },
      }),
      x('GET', `/fitnessActivities/f${n}`, 200, {
        response: { 'content-type': 'application/vnd.com.service.FitnessActivity+json' },
        findings,
      }),
      x('DELETE', `/fitnessActivities/f${n}`, 204),
    ]
    const repeated = Array.from({ length: 50 }, (_, n) => flow(n)).flat()
    const same = planScaffold(repeated, { idPrefix: 'p' })
    expect(same.scenarios.map((s) => [s.kind, s.steps.length, s.represents, s.flows])).toEqual([
      ['activity-flow', 3, 150, 50],
    ])

    const withFinding = planScaffold(
      [...flow(100), ...flow(101, [irregular]), ...flow(102), ...flow(103, [irregular])],
      { idPrefix: 'p' },
    )
    expect(withFinding.scenarios.map((s) => [s.id, s.flows])).toEqual([
      ['p-activity-flow-1', 2],
      ['p-activity-flow-2', 2],
    ])
    expect(withFinding.scenarios[1]?.steps[1]?.comments.join('\n')).toContain('IRREG-ITEM-URI-FORM')
  })

  it('keeps a deleted activity in its flow: a second delete and a read of the gone activity reuse the captured URI', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/d1' } }),
        x('DELETE', '/fitnessActivities/d1', 204),
        x('GET', '/fitnessActivities/d1', 404),
        x('DELETE', '/fitnessActivities/d1', 404),
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/d2' } }),
        x('GET', '/fitnessActivities/d2', 200),
      ],
      { idPrefix: 'p' },
    )
    const summary = plan.scenarios.map((s) => [
      s.kind,
      s.steps
        .map(
          (step) => `${(step.step.request as { method: string }).method} ${(step.step.request as { url: string }).url}`,
        )
        .join(', '),
    ])
    expect(summary).toEqual([
      ['activity-flow', 'POST /fitnessActivities, DELETE ${activity}, GET ${activity}, DELETE ${activity}'],
      ['activity-flow', 'POST /fitnessActivities, GET ${activity}'],
    ])
    expect(plan.scenarios[0]?.steps[3]?.step.expect).toEqual({ status: '4xx' })
  })

  it('turns a 404 on an activity the recording never created into a created-then-deleted activity, never a recorded id', () => {
    const plan = planScaffold(
      [
        x('GET', '/fitnessActivities/999999', 404),
        x('PUT', '/fitnessActivities/888', 404, {
          requestJson: { notes: 'x' },
          headers: { 'content-type': 'application/vnd.com.service.FitnessActivity+json' },
        }),
      ],
      { idPrefix: 'p' },
    )
    expect(plan.leftOut).toEqual([])
    expect(plan.scenarios.map((s) => s.kind)).toEqual(['activity-missing', 'activity-missing'])
    const steps = plan.scenarios[1]?.steps.map((s) => s.step) ?? []
    expect(
      steps.map((step) => `${(step.request as { method: string }).method} ${(step.request as { url: string }).url}`),
    ).toEqual(['POST /fitnessActivities', 'DELETE ${gone0}', 'PUT ${gone0}'])
    expect(steps[0]).toMatchObject({ creates: 'headers.location', capture: { gone0: 'headers.location' } })
    expect(steps[2]?.expect).toEqual({ status: '4xx' })
  })

  it('sends the recorded Accept and Content-Type, so a deliberately wrong media type is sent wrong again', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 415, {
          requestJson: { type: 'Running' },
          headers: { 'content-type': 'application/json' },
        }),
        x('GET', '/user', 200, { headers: { accept: 'application/vnd.com.service.User+json' } }),
        x('GET', '/user', 406, { headers: { accept: 'text/html' } }),
        x('GET', '/fitnessActivities', 200),
      ],
      { idPrefix: 'p' },
    )
    const requests = plan.scenarios.map((s) => s.steps[0]?.step.request as Record<string, unknown>)
    expect(requests[0]).toMatchObject({ headers: { 'content-type': 'application/json' }, json: { type: 'Running' } })
    expect(requests[0]).not.toHaveProperty('contentType')
    expect(plan.scenarios[0]?.steps[0]?.step.expect).toEqual({ status: '4xx' })
    expect(requests[1]).toMatchObject({ accept: 'User' })
    expect(requests[2]).toMatchObject({ headers: { accept: 'text/html' } })
    expect(requests[3]).not.toHaveProperty('accept')
    expect(requests[3]).not.toHaveProperty('headers')
  })

  it('keeps a deliberately bad notes value, and sends a JSON body recorded without Content-Type as text', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, {
          response: { location: '/fitnessActivities/n1' },
          requestJson: { type: 'Running' },
          headers: { 'content-type': 'application/vnd.com.service.NewFitnessActivity+json' },
        }),
        x('PUT', '/fitnessActivities/n1', 400, {
          requestJson: { notes: { text: 'an object' } },
          headers: { 'content-type': 'application/vnd.com.service.FitnessActivity+json' },
        }),
        x('PUT', '/fitnessActivities/n1', 415, { requestJson: { notes: 'plain' } }),
      ],
      { idPrefix: 'p' },
    )
    const [create, badNotes, noType] =
      plan.scenarios[0]?.steps.map((s) => s.step.request as Record<string, unknown>) ?? []
    expect(create).toMatchObject({
      contentType: 'NewFitnessActivity',
      json: { type: 'Running', notes: '${run.marker} scaffolded' },
    })
    expect(badNotes).toMatchObject({ contentType: 'FitnessActivityEdit', json: { notes: { text: 'an object' } } })
    expect(noType).toEqual({
      method: 'PUT',
      url: '${activity}',
      body: JSON.stringify({ notes: '${run.marker} scaffolded' }),
    })
  })

  it('computes If-Modified-Since at run time: from the captured Last-Modified in a flow, from the run start elsewhere', () => {
    const lastModified = 'Sun, 06 Nov 1994 08:49:37 GMT'
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/c1' } }),
        x('GET', '/fitnessActivities/c1', 200, { response: { 'last-modified': lastModified } }),
        x('GET', '/fitnessActivities/c1', 200, { headers: { 'if-modified-since': 'Sat, 05 Nov 1994 08:49:37 GMT' } }),
        x('GET', '/fitnessActivities/c1', 304, { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:47 GMT' } }),
        x('GET', '/fitnessActivities', 304, {
          startedDateTime: '2026-01-01T00:00:00.000Z',
          headers: { 'if-modified-since': 'Wed, 31 Dec 2025 23:00:00 GMT' },
        }),
        x('GET', '/fitnessActivities', 200, { headers: { 'if-modified-since': 'yesterday' } }),
      ],
      { idPrefix: 'p' },
    )
    const flow = plan.scenarios.find((s) => s.kind === 'activity-flow')?.steps.map((s) => s.step) ?? []
    expect(flow[1]?.capture).toEqual({ lastModified1: 'headers.last-modified' })
    expect(flow[2]).toMatchObject({
      request: { headers: { 'if-modified-since': '${lastModified1 | addSeconds(-86400) | httpDate}' } },
      expect: { status: 200 },
    })
    expect(flow[3]).toMatchObject({
      request: { headers: { 'if-modified-since': '${lastModified1 | addSeconds(10) | httpDate}' } },
      expect: { status: [200, 304] },
    })
    const feed = plan.scenarios
      .filter((s) => s.kind === 'feed-conditional')
      .map((s) => (s.steps[0]?.step.request as { headers: Record<string, string> }).headers['if-modified-since'])
    expect(feed).toEqual(['${run.now | addSeconds(-3600) | httpDate}', 'yesterday'])
  })

  it('derives token roles: none, the §7 reason of a 403, a second user, and a token only ever refused with 401 is invalid', () => {
    const plan = planScaffold(
      [
        x('GET', '/user', 200),
        x('GET', '/user', 200),
        x('GET', '/user', 200, { tokenId: 'tok_2' }),
        x('GET', '/user', 401, { hasAuthorization: false, tokenId: undefined }),
        x('GET', '/user', 403, { tokenId: 'tok_3', responseJson: { reason: 'Revoked', delete_health: 'true' } }),
        x('GET', '/user', 403, { tokenId: 'tok_4', responseJson: { reason: 'Insufficient permission' } }),
        x('GET', '/user', 401, { tokenId: 'tok_unknown' }),
      ],
      { idPrefix: 'p' },
    )
    const auth = plan.scenarios.map((s) => (s.steps[0]?.step.request as { auth?: string }).auth ?? 'token')
    expect(auth).toEqual(['token', 'other-token', 'none', 'revoked-delete-token', 'limited-token', 'invalid'])
  })

  it('expects no body from a HEAD answered 403, the ErrorMessage body from a GET, and keeps a token the role its 403 reason named', () => {
    const revoked = { tokenId: 'tok_r', responseJson: { reason: 'Revoked', delete_health: 'false' } }
    const plan = planScaffold(
      [
        x('HEAD', '/fitnessActivities/h1', 403, { tokenId: 'tok_r' }),
        x('GET', '/user', 403, revoked),
        x('GET', '/user', 200, { tokenId: 'tok_l' }),
        x('GET', '/fitnessActivities', 403, { tokenId: 'tok_l', responseJson: { reason: 'Insufficient permission' } }),
      ],
      { idPrefix: 'p' },
    )
    const expects = plan.scenarios.slice(0, 2).map((s) => s.steps.at(-1)?.step.expect)
    // The HEAD's 403 has no body: its token's role comes from the reason its other 403 gave; so does a limited token's 200.
    expect(plan.scenarios.map((s) => (s.steps.at(-1)?.step.request as { auth?: string }).auth)).toEqual([
      'revoked-token',
      'revoked-token',
      'limited-token',
      'limited-token',
    ])
    expect(expects).toEqual([
      { status: 403, noBody: true },
      { status: 403, mediaType: 'ErrorMessage', schema: 'ErrorMessage' },
    ])
  })

  it('keeps only the 64 most recently deleted flows open, so memory stays bounded', () => {
    const flows = Array.from({ length: 65 }, (_, n) => [
      x('POST', '/fitnessActivities', 201, { response: { location: `/fitnessActivities/b${n}` } }),
      x('DELETE', `/fitnessActivities/b${n}`, 204),
    ]).flat()
    const plan = planScaffold(
      [...flows, x('GET', '/fitnessActivities/b0', 404), x('GET', '/fitnessActivities/b64', 404)],
      { idPrefix: 'p' },
    )
    // b0's flow was finished when the 65th was deleted: its later read names a missing activity; b64's read is still in its flow.
    expect(plan.scenarios.filter((s) => s.kind === 'activity-missing')).toHaveLength(1)
    expect(
      plan.scenarios
        .filter((s) => s.kind === 'activity-flow')
        .map((s) => s.steps.length)
        .sort(),
    ).toEqual([2, 3])
  })
})
