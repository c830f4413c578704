// The near misses of the main token the auth scenarios send: each differs from the token, and none
// reaches a report or a reproduction, where they would give away all but one character of it.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { curlLine } from '../../../../src/execute/http/curl-line.js'
import { nearMissSecrets, nearMissToken } from '../../../../src/execute/http/near-miss-token.js'
import { createRedactor } from '../../../../src/execute/finalize/redact.js'
import { NEAR_MISS_TOKENS } from '../../../../src/model/scenario.js'

const TOKEN = 'tok-secret-3f9a7c21'

describe('nearMissToken', () => {
  it.each([
    ['near-miss-changed', 'tok-secret-3f9a7c2A'],
    ['near-miss-cut', 'tok-secret-3f9a7c2'],
    ['near-miss-appended', 'tok-secret-3f9a7c21A'],
  ] as const)('%s of the token is %s', (kind, expected) => {
    expect(nearMissToken(TOKEN, kind)).toBe(expected)
  })

  it('changes a last character that is already the usual replacement to another one', () => {
    expect(nearMissToken('abcA', 'near-miss-changed')).toBe('abcB')
  })

  it('never gives the token itself', () => {
    for (const token of ['a', 'A', 'tokenA', TOKEN])
      for (const kind of NEAR_MISS_TOKENS) expect(nearMissToken(token, kind)).not.toBe(token)
  })
})

describe('a near miss in what the run writes', () => {
  const redact = createRedactor(new Map([[TOKEN, 'token'], ...nearMissSecrets(TOKEN, 'token')]))

  it.each(NEAR_MISS_TOKENS)('%s is redacted in any text, and the real token next to it too', (kind) => {
    const near = nearMissToken(TOKEN, kind)
    const text = redact(`the server accepted ${near} (the real one is ${TOKEN})`)
    expect(text).not.toContain(TOKEN.slice(0, -1))
    expect(text).toContain(`[REDACTED token, ${kind}]`)
    expect(text).toContain('(the real one is [REDACTED token])')
  })

  it.each([
    ['near-miss-changed', 'from-env-tokeA'],
    ['near-miss-cut', 'from-env-toke'],
    ['near-miss-appended', 'from-env-tokenA'],
  ] as const)('the reproduction of %s builds it from $FITCONFORM_TOKEN, never holding it', (kind, sentByShell) => {
    const line = curlLine(
      { method: 'GET', url: 'http://h/user', headers: { authorization: `Bearer ${nearMissToken(TOKEN, kind)}` } },
      kind,
    )
    expect(line).not.toContain(TOKEN.slice(0, -1))
    const output = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; }\n${line}`], {
      env: { PATH: process.env.PATH ?? '', FITCONFORM_TOKEN: 'from-env-token' },
      encoding: 'utf8',
    })
    expect(output.split('\0')).toContain(`Authorization: Bearer ${sentByShell}`)
  })
})
