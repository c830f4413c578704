import { describe, expect, it } from 'vitest'
import {
  apiPathOf,
  endToEndHeaders,
  HAS_BODY,
  upstreamPathFor,
  upstreamRequestHead,
} from '../../../proxy/forward/target.js'
import { stableStringify } from '../../../proxy/recording/stable-json.js'

describe('paths under the target', () => {
  it.each([
    { target: 'http://h/', client: '/user', upstream: '/user', api: '/user' },
    { target: 'http://h/api/v1', client: '/user?x=1', upstream: '/api/v1/user?x=1', api: '/user?x=1' },
    { target: 'http://h/api/v1/', client: '/api/v1/user', upstream: '/api/v1/user', api: '/user' },
    { target: 'http://h/api', client: '/apiary', upstream: '/api/apiary', api: '/apiary' },
    { target: 'http://h/', client: 'http://elsewhere/user?a=1', upstream: '/user?a=1', api: '/user?a=1' },
    { target: 'http://h/', client: '//evil/x', upstream: '//evil/x', api: '//evil/x' },
  ])('$client through $target → $upstream', ({ target, client, upstream, api }) => {
    expect(upstreamPathFor(new URL(target), client)).toEqual({ path: upstream })
    expect(apiPathOf(new URL(target), upstream)).toBe(api)
  })

  it.each([
    { client: 'http://[bad/user', problem: /absolute URL that does not parse/ },
    { client: 'http://host:99999/x', problem: /absolute URL that does not parse/ },
    { client: '/a\u0001b', problem: /control character/ },
  ])('cannot map $client: a problem, not a throw', ({ client, problem }) => {
    const mapped = upstreamPathFor(new URL('http://h/'), client)
    expect('problem' in mapped ? mapped.problem : mapped.path).toMatch(problem)
  })
})

describe('endToEndHeaders', () => {
  it('drops hop-by-hop headers and those named by Connection, keeps order and repeats', () => {
    const raw = [
      'Set-Cookie',
      'a=1',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      'h',
      'Keep-Alive',
      'timeout=5',
      'Transfer-Encoding',
      'chunked',
      'Set-Cookie',
      'b=2',
      'Host',
      'x',
    ]
    expect(endToEndHeaders(raw, new Set(['host']))).toEqual(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'])
  })
})

describe('upstreamRequestHead', () => {
  it.each([
    { raw: ['Host', 'proxy:1', 'Accept', 'a/b'], flags: 0 },
    { raw: ['Content-Length', '2', 'Expect', '100-continue'], flags: HAS_BODY },
    { raw: ['transfer-encoding', 'chunked', 'If-None-Match', '"x"'], flags: HAS_BODY },
    { raw: ['IF-MODIFIED-SINCE', 'Tue, 01 Mar 2011 08:00:00 GMT'], flags: 0 },
  ])('says whether $raw declares a body, and sends the target as Host', ({ raw, flags }) => {
    const head = upstreamRequestHead(raw, 'target:8080')
    expect(head.flags).toBe(flags)
    const kept = raw.filter(
      (_, i) => i % 2 === 0 && !['host', 'expect', 'transfer-encoding'].includes((raw[i] as string).toLowerCase()),
    )
    expect(head.headers.filter((_, i) => i % 2 === 0)).toEqual([...kept, 'host'])
    expect(head.headers.at(-1)).toBe('target:8080')
  })
})

describe('stableStringify', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    )
  })

  it.each([
    {
      name: 'sorted outside, unsorted deep inside',
      value: { a: [{ b: { y: 1, x: [null, { q: 1, p: 2 }] } }], z: 1 },
      json: '{"a":[{"b":{"x":[null,{"p":2,"q":1}],"y":1}}],"z":1}',
    },
    { name: 'undefined members of a sorted object', value: { a: undefined, b: 1 }, json: '{"b":1}' },
    { name: 'integer-like keys', value: { b: 1, 10: 'x', 9: 'y' }, json: '{"9":"y","10":"x","b":1}' },
    { name: 'nothing to sort', value: [1, 'two', { a: 1, b: [true] }], json: '[1,"two",{"a":1,"b":[true]}]' },
  ])('$name', ({ value, json }) => {
    expect(stableStringify(value)).toBe(json)
  })

  it('leaves the value it was given as it was', () => {
    const value = { b: { d: 1, c: 2 }, a: 1 }
    stableStringify(value)
    expect(Object.keys(value)).toEqual(['b', 'a'])
    expect(Object.keys(value.b)).toEqual(['d', 'c'])
  })
})
