import { describe, expect, it } from 'vitest'
import { createScrub, scrubDeep } from '../../../src/shared/secrets.js'

const SECRET = "o'Brien tok/+="
const scrub = createScrub([
  [SECRET, '[R]'],
  ['abcd', '[A]'],
])

describe('createScrub', () => {
  it.each([
    ['raw', `x ${SECRET} y`],
    ['percent-encoded, upper case', `x ${encodeURIComponent(SECRET).replace("'", '%27')} y`],
    ['percent-encoded, lower case, space as +', 'x o%27Brien+tok%2f%2b%3d y'],
    ['JSON-escaped', 'x o\\u0027Brien tok\\/+\\u003D y'],
    ['with its space as + and nothing else escaped', "x o'Brien+tok/+= y"],
    ['base64', `x ${Buffer.from(SECRET).toString('base64')} y`],
    ['base64url inside a longer base64 text', `x ${Buffer.from(`xy${SECRET}zz`).toString('base64url')} y`],
    ['percent-encoded twice', 'x o%2527Brien%2520tok%252F%252B%253D y'],
    ['as HTML hex references', 'x o&#x27;Brien tok&#x2F;&#X2b;&#x3d; y'],
    ['as HTML decimal references with leading zeros', 'x o&#039;Brien tok&#047;&#43;&#61; y'],
    ['as HTML named references', 'x o&apos;Brien tok&sol;&plus;&equals; y'],
  ])('finds the secret %s', (_form, text) => {
    const scrubbed = scrub(text)
    expect(scrubbed).toContain('[R]')
    expect(scrubbed).not.toMatch(/Brien/)
  })

  it.each([
    ['a few spaces', 'Bearer a b c d', 'x Bearer+a b+c+d, application/x+json'],
    [
      'more spaces than are spelled out',
      'one two three four five six',
      'x one+two three+four five+six, application/x+json',
    ],
  ])('finds a secret with %s written with + for spaces', (_what, secret, text) => {
    expect(createScrub([[secret, '[S]']])(text)).toBe('x [S], application/x+json')
  })

  it.each([
    ['camelCase', '{"accessToken":"v1"}', '{"accessToken":"[X]"}'],
    ['PascalCase', '{"AccessToken": "v1"}', '{"AccessToken": "[X]"}'],
    ['kebab-case', '{"access-token":"v1"}', '{"access-token":"[X]"}'],
    ['upper snake case in a query', '/cb?ACCESS_TOKEN=v1&x=1', '/cb?ACCESS_TOKEN=[X]&x=1'],
    [
      'a URL fragment',
      'https://app.example/cb#access_token=v1&token_type=bearer',
      'https://app.example/cb#access_token=[X]&token_type=bearer',
    ],
    ['clientSecret', '{"clientSecret":"v1"}', '{"clientSecret":"[X]"}'],
  ])('redacts a credential field named in %s', (_style, text, expected) => {
    expect(createScrub([], '[X]')(text)).toBe(expected)
  })

  it('redacts a JSON Web Token by its shape under any name, and leaves dotted words alone', () => {
    const jwt = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"1234567890"}').toString('base64url')}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`
    const scrubJwt = createScrub([], '[X]')
    expect(scrubJwt(`{"note":"${jwt}","n":1}`)).toBe('{"note":"[X]","n":1}')
    expect(scrubJwt(`see ${jwt}.`)).toBe('see [X].')
    expect(scrubJwt('eyJhbGciOi is not a token, nor is a.b.c or eyJ.x.y')).toBe(
      'eyJhbGciOi is not a token, nor is a.b.c or eyJ.x.y',
    )
  })

  it('leaves a secret shorter than four characters to redaction by name', () => {
    expect(createScrub([['abc', '[X]']])('abc')).toBe('abc')
  })
})

describe('scrubDeep', () => {
  it('scrubs a value nested 100,000 levels deep without running out of stack', () => {
    let deep: unknown = 'abcd'
    for (let i = 0; i < 100_000; i++) deep = [{ k: deep }]
    let out = scrubDeep(deep, scrub) as unknown
    for (let i = 0; i < 100_000; i++) out = (out as { k: unknown }[])[0]!.k
    expect(out).toBe('[A]')
  })

  it('returns a value with nothing to scrub as it is, and copies only the path to what changed', () => {
    const clean = { status: 200, headers: { accept: 'application/json' }, body: { items: [{ uri: '/a/1' }] } }
    expect(scrubDeep(clean, scrub)).toBe(clean)
    const value = { ...clean, message: 'got abcd', list: ['x', { deep: 'abcd' }, { other: 'y' }] }
    const out = scrubDeep(value, scrub)
    expect(out).toEqual({ ...clean, message: 'got [A]', list: ['x', { deep: '[A]' }, { other: 'y' }] })
    expect(value.message).toBe('got abcd')
    expect(out.headers).toBe(clean.headers)
    expect(out.body).toBe(clean.body)
    expect(out.list[2]).toBe(value.list[2])
  })

  it('keeps the order of keys when a later key changes, and scrubs keys', () => {
    const out = scrubDeep({ a: 1, b: 'x', abcd: 2, c: 'abcd' }, scrub)
    expect(JSON.stringify(out)).toBe('{"a":1,"b":"x","[A]":2,"c":"[A]"}')
  })

  it('takes what an earlier call returned as it is, changed or not', () => {
    const scrubbed = new WeakSet<object>()
    const clean = scrubDeep({ a: 'x' }, scrub, { scrubbed })
    const changed = scrubDeep({ a: 'abcd' }, scrub, { scrubbed })
    expect(scrubbed.has(clean)).toBe(true)
    expect(scrubbed.has(changed)).toBe(true)
    const outer = scrubDeep({ clean, changed, note: 'abcd' }, scrub, { scrubbed })
    expect(outer.clean).toBe(clean)
    expect(outer.changed).toBe(changed)
    expect(outer.note).toBe('[A]')
  })

  it('scrubs a value that holds itself', () => {
    const value: Record<string, unknown> = { text: 'abcd' }
    value['self'] = value
    const out = scrubDeep(value, scrub)
    expect(out['text']).toBe('[A]')
    expect(out['self']).toBe(out)
  })

  it('keeps a "__proto__" key as data and redacts named fields whatever their length', () => {
    const value = JSON.parse('{"__proto__":{"x":"abcd"},"authorization":"Bearer a"}') as unknown
    const out = scrubDeep(value, scrub, { redactField: (key) => (key === 'authorization' ? '[H]' : undefined) })
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":"[A]"},"authorization":"[H]"}')
  })
})

describe('redaction by name', () => {
  const byName = createScrub([], '[redacted]')
  it.each([
    [
      'an OAuth form body',
      'grant_type=refresh_token&refresh_token=r1&client_secret=s2',
      'grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]',
    ],
    [
      'query parameters',
      '/x?token=ab&api_key=k&access_token=t&page=2',
      '/x?token=[redacted]&api_key=[redacted]&access_token=[redacted]&page=2',
    ],
    [
      'a JSON token response',
      '{"access_token": "a", "token_type": "bearer", "refresh_token":"b\\"c"}',
      '{"access_token": "[redacted]", "token_type": "bearer", "refresh_token":"[redacted]"}',
    ],
    ['an unrelated field', 'notes=token+talk&tokens=3', 'notes=token+talk&tokens=3'],
  ])('redacts credential fields of %s whatever their length', (_what, text, expected) => {
    expect(byName(text)).toBe(expected)
  })
})
