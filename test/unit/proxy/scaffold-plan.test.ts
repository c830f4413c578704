import { describe, expect, it } from 'vitest'
import { matchEndpoint } from '../../../proxy/analyze/endpoints.js'
import { planScaffold } from '../../../proxy/scaffold/plan-scenarios.js'
import type { ScaffoldExchange } from '../../../proxy/scaffold/scaffold-exchange.js'
import type { Finding } from '../../../src/model/exchange.js'

let nextId = 1
function x(method: string, path: string, status: number, extra: Partial<ScaffoldExchange> & { headers?: Record<string, string>; response?: Record<string, string> } = {}): ScaffoldExchange {
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

const irregular: Finding = { kind: 'irregularity', rule: 'IRREG-ITEM-URI-FORM', pointer: '/items/0/uri', side: 'response', message: 'm' }

describe('planScaffold', () => {
  it('turns a create and what follows on the same activity into one flow with captured Location and Last-Modified', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/a1' }, requestJson: { type: 'Running', notes: 'mine', post_to_net: true } }),
        x('GET', '/fitnessActivities/a1', 200, { response: { 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' } }),
        x('GET', '/fitnessActivities/a1', 304, { headers: { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' } }),
        x('DELETE', '/fitnessActivities/a1', 204),
        x('DELETE', '/fitnessActivities/zz', 204),
      ],
      { idPrefix: 'scaffold-t' },
    )
    const [flow] = plan.scenarios
    expect(plan.scenarios).toHaveLength(1)
    expect(flow?.steps.map((s) => (s.step.request as { url: string }).url)).toEqual(['/fitnessActivities', '${activity}', '${activity}', '${activity}'])
    const create = flow?.steps[0]?.step as { creates: string; request: { json: Record<string, unknown> } }
    expect(create.creates).toBe('headers.location')
    expect(create.request.json).toMatchObject({ notes: '${run.marker} scaffolded', post_to_net: false })
    expect(flow?.steps[1]?.step.capture).toEqual({ lastModified1: 'headers.last-modified' })
    expect(flow?.steps[2]?.step).toMatchObject({ request: { headers: { 'If-Modified-Since': '${lastModified1}' } }, expect: { status: 304, noBody: true } })
    expect(plan.leftOut).toEqual([{ exchange: expect.any(Number), reason: 'DELETE /fitnessActivities/zz: a write to an activity this recording did not create' }])
  })

  it('collapses duplicates but keeps every exchange with a finding not seen before', () => {
    const feed = (findings: Finding[] = []) => x('GET', '/fitnessActivities', 200, { query: [['pageSize', '4']], findings })
    const plan = planScaffold([feed(), feed(), feed([irregular]), feed([irregular]), x('GET', '/user', 200), x('GET', '/user', 200)], { idPrefix: 'p' })
    expect(plan.scenarios.map((s) => [s.kind, s.steps.length, s.represents])).toEqual([
      ['feed-paging', 2, 4],
      ['user', 1, 2],
    ])
  })

  it('collapses repeated flows of the same shape into one scenario, and keeps a flow with another finding apart', () => {
    const flow = (n: number, findings: Finding[] = []) => [
      x('POST', '/fitnessActivities', 201, { response: { location: `/fitnessActivities/f${n}` }, requestJson: { type: 'Running', notes: `run ${n}` } }),
      x('GET', `/fitnessActivities/f${n}`, 200, { response: { 'content-type': 'application/vnd.com.service.FitnessActivity+json' }, findings }),
      x('DELETE', `/fitnessActivities/f${n}`, 204),
    ]
    const repeated = Array.from({ length: 50 }, (_, n) => flow(n)).flat()
    const same = planScaffold(repeated, { idPrefix: 'p' })
    expect(same.scenarios.map((s) => [s.kind, s.steps.length, s.represents, s.flows])).toEqual([['activity-flow', 3, 150, 50]])

    const withFinding = planScaffold([...flow(100), ...flow(101, [irregular]), ...flow(102), ...flow(103, [irregular])], { idPrefix: 'p' })
    expect(withFinding.scenarios.map((s) => [s.id, s.flows])).toEqual([
      ['p-activity-flow-1', 2],
      ['p-activity-flow-2', 2],
    ])
    expect(withFinding.scenarios[1]?.steps[1]?.comments.join('\n')).toContain('IRREG-ITEM-URI-FORM')
  })

  it('ends a flow at its delete: a later read of the deleted activity is a read, and a flow never deleted still ends the plan', () => {
    const plan = planScaffold(
      [
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/d1' } }),
        x('DELETE', '/fitnessActivities/d1', 204),
        x('GET', '/fitnessActivities/d1', 404),
        x('POST', '/fitnessActivities', 201, { response: { location: '/fitnessActivities/d2' } }),
        x('GET', '/fitnessActivities/d2', 200),
      ],
      { idPrefix: 'p' },
    )
    expect(plan.scenarios.map((s) => [s.kind, s.steps.map((step) => (step.step.request as { method: string }).method).join(' ')])).toEqual([
      ['activity-flow', 'POST DELETE'],
      ['activity-read', 'GET GET'],
      ['activity-flow', 'POST GET'],
    ])
  })

  it('derives token roles: none, the §7 reason of a 403, a second user', () => {
    const plan = planScaffold(
      [
        x('GET', '/user', 200),
        x('GET', '/user', 200),
        x('GET', '/user', 200, { tokenId: 'tok_2' }),
        x('GET', '/user', 401, { hasAuthorization: false, tokenId: undefined }),
        x('GET', '/user', 403, { tokenId: 'tok_3', responseJson: { reason: 'Revoked', delete_health: 'true' } }),
        x('GET', '/user', 403, { tokenId: 'tok_4', responseJson: { reason: 'Insufficient permission' } }),
      ],
      { idPrefix: 'p' },
    )
    const auth = plan.scenarios.map((s) => (s.steps[0]?.step.request as { auth?: string }).auth ?? 'token')
    expect(auth).toEqual(['token', 'other-token', 'none', 'revoked-delete-token', 'limited-token'])
  })
})
