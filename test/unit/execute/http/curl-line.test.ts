import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { curlLine } from '../../../../src/execute/http/curl-line.js'
import type { AuthChoice } from '../../../../src/model/scenario.js'

const SECRET = 'tok-secret-3f9a7c21'

/** The arguments a POSIX shell would give curl for the line, with the token variables set. */
function argumentsOf(line: string): string[] {
  expect(line.startsWith('curl ')).toBe(true)
  const script = `curl() { printf '%s\\0' "$@"; }\n${line}`
  const output = execFileSync('sh', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', FITCONFORM_TOKEN: 'from-env-token', FITCONFORM_OTHER_TOKEN: 'from-env-other' },
    encoding: 'utf8',
  })
  return output.split('\0').slice(0, -1)
}

describe('curlLine', () => {
  it.each<{ auth: AuthChoice; header: string | undefined }>([
    { auth: 'token', header: 'Authorization: Bearer from-env-token' },
    { auth: 'other-token', header: 'Authorization: Bearer from-env-other' },
    { auth: 'invalid', header: `authorization: Bearer ${SECRET}` },
  ])('with auth $auth sends "$header"', ({ auth, header }) => {
    const line = curlLine(
      {
        method: 'GET',
        url: 'http://h/api/v1/user',
        headers: { authorization: `Bearer ${SECRET}`, accept: 'application/json' },
      },
      auth,
    )
    if (auth !== 'invalid') expect(line).not.toContain(SECRET)
    const args = argumentsOf(line)
    expect(args.filter((_, i) => args[i - 1] === '-H')).toEqual([header, 'accept: application/json'])
  })

  it.each([
    { auth: 'token' as const, variable: '$FITCONFORM_TOKEN' },
    { auth: 'other-token' as const, variable: '$FITCONFORM_OTHER_TOKEN' },
    { auth: 'revoked-delete-token' as const, variable: '$FITCONFORM_REVOKED_DELETE_TOKEN' },
  ])('names the token of $auth as $variable, never its value', ({ auth, variable }) => {
    const line = curlLine(
      { method: 'DELETE', url: 'http://h/fitnessActivities/1', headers: { authorization: `Bearer ${SECRET}` } },
      auth,
    )
    expect(line).toContain(`"Authorization: Bearer ${variable}"`)
    expect(line).not.toContain(SECRET)
  })

  it.each([
    { method: 'GET', flags: ['-i', '-sS', 'http://h/x'] },
    { method: 'HEAD', flags: ['-i', '-sS', '-I', 'http://h/x'] },
    { method: 'POST', flags: ['-i', '-sS', '-X', 'POST', 'http://h/x'] },
    { method: 'PUT', flags: ['-i', '-sS', '-X', 'PUT', 'http://h/x'] },
    { method: 'DELETE', flags: ['-i', '-sS', '-X', 'DELETE', 'http://h/x'] },
  ])('sends $method as $flags', ({ method, flags }) => {
    expect(argumentsOf(curlLine({ method, url: 'http://h/x', headers: {} }, 'none'))).toEqual(flags)
  })

  it('quotes single quotes, spaces and dollars so the shell passes them through unchanged', () => {
    const body = `{"notes":"O'Brien's run costs $5 ; rm -rf / \`x\` \\n"}`
    const url = "http://h/x?q=it's&a=$HOME"
    const line = curlLine({ method: 'POST', url, headers: { 'content-type': "text/plain; name='x'" }, body }, 'none')
    expect(argumentsOf(line)).toEqual([
      '-i',
      '-sS',
      '-X',
      'POST',
      url,
      '-H',
      "content-type: text/plain; name='x'",
      '--data-binary',
      body,
    ])
  })

  it('sends no Authorization header for auth none', () => {
    const args = argumentsOf(
      curlLine({ method: 'GET', url: 'http://h/x', headers: { authorization: `Bearer ${SECRET}` } }, 'none'),
    )
    expect(args.join(' ')).not.toMatch(/authorization/i)
  })
})
