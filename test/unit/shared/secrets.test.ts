import { describe, expect, it } from 'vitest'
import { createScrub, scrubDeep } from '../../../src/shared/secrets.js'

const SECRET = "o'Brien tok/+="
const scrub = createScrub([[SECRET, '[R]'], ['abcd', '[A]']])

describe('createScrub', () => {
  it.each([
    ['raw', `x ${SECRET} y`],
    ['percent-encoded, upper case', `x ${encodeURIComponent(SECRET).replace("'", '%27')} y`],
    ['percent-encoded, lower case, space as +', 'x o%27Brien+tok%2f%2b%3d y'],
    ['JSON-escaped', 'x o\\u0027Brien tok\\/+\\u003D y'],
    ['with its space as + and nothing else escaped', "x o'Brien+tok/+= y"],
    ['base64', `x ${Buffer.from(SECRET).toString('base64')} y`],
    ['base64url inside a longer base64 text', `x ${Buffer.from(`xy${SECRET}zz`).toString('base64url')} y`],
  ])('finds the secret %s', (_form, text) => {
    const scrubbed = scrub(text)
    expect(scrubbed).toContain('[R]')
    expect(scrubbed).not.toMatch(/Brien/)
  })

  it.each([
    ['a few spaces', 'Bearer a b c d', 'x Bearer+a b+c+d, application/x+json'],
    ['more spaces than are spelled out', 'one two three four five six', 'x one+two three+four five+six, application/x+json'],
  ])('finds a secret with %s written with + for spaces', (_what, secret, text) => {
    expect(createScrub([[secret, '[S]']])(text)).toBe('x [S], application/x+json')
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

  it('keeps a "__proto__" key as data and redacts named fields whatever their length', () => {
    const value = JSON.parse('{"__proto__":{"x":"abcd"},"authorization":"Bearer a"}') as unknown
    const out = scrubDeep(value, scrub, { redactField: (key) => (key === 'authorization' ? '[H]' : undefined) })
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":"[A]"},"authorization":"[H]"}')
  })
})

describe('redaction by name', () => {
  const byName = createScrub([], '[redacted]')
  it.each([
    ['an OAuth form body', 'grant_type=refresh_token&refresh_token=r1&client_secret=s2', 'grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]'],
    ['query parameters', '/x?token=ab&api_key=k&access_token=t&page=2', '/x?token=[redacted]&api_key=[redacted]&access_token=[redacted]&page=2'],
    ['a JSON token response', '{"access_token": "a", "token_type": "bearer", "refresh_token":"b\\"c"}', '{"access_token": "[redacted]", "token_type": "bearer", "refresh_token":"[redacted]"}'],
    ['an unrelated field', 'notes=token+talk&tokens=3', 'notes=token+talk&tokens=3'],
  ])('redacts credential fields of %s whatever their length', (_what, text, expected) => {
    expect(byName(text)).toBe(expected)
  })
})
