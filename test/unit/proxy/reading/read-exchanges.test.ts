import { describe, expect, it } from 'vitest'
import { problemOfEntry } from '../../../../proxy/reading/read-exchanges.js'

const good = {
  _id: 1,
  startedDateTime: '2026-01-01T00:00:00.000Z',
  request: { method: 'GET', url: 'http://127.0.0.1:1/user', headers: [{ name: 'accept', value: 'x' }] },
  response: { status: 200, headers: [], content: { text: '{}' } },
  _findings: [{ kind: 'note', message: 'm' }],
}

describe('problemOfEntry', () => {
  it.each([
    { line: good, problem: undefined },
    { line: { ...good, _findings: undefined, extra: 'a newer field' }, problem: undefined },
    { line: null, problem: 'not a recorded exchange (not a JSON object)' },
    { line: [good], problem: 'not a recorded exchange (not a JSON object)' },
    { line: { request: null, response: null }, problem: 'not a recorded exchange (no request)' },
    { line: { ...good, response: null }, problem: 'not a recorded exchange (no response)' },
    {
      line: { ...good, request: { ...good.request, url: '/relative' } },
      problem: 'request.url is not an absolute URL',
    },
    {
      line: { ...good, request: { ...good.request, headers: [{ name: 'a' }] } },
      problem: 'request.headers is not a list of { name, value } texts',
    },
    { line: { ...good, request: { ...good.request, postData: {} } }, problem: 'request.postData has no text' },
    { line: { ...good, response: { ...good.response, status: '200' } }, problem: 'response.status is not a number' },
    {
      line: { ...good, response: { ...good.response, content: null } },
      problem: 'response.content is not an object with a text',
    },
    { line: { ...good, _id: undefined }, problem: '_id is not a number' },
    {
      line: { ...good, _findings: [{ kind: 'bogus', message: 'm' }] },
      problem: '_findings is not a list of { kind, message }',
    },
    { line: { ...good, _endpoint: { row: 1 } }, problem: '_endpoint is not { method, path }' },
    { line: { ...good, _error: {} }, problem: '_error has no code' },
  ])('$problem', ({ line, problem }) => {
    expect(problemOfEntry(line)).toBe(problem)
  })
})
