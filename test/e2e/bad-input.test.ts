import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js'
import { makeTempDir } from '../helpers/temp-dir.js'

let server: LoopbackServer
let folder: string
beforeAll(async () => {
  server = await startLoopbackServer((_, response) => response.writeHead(200).end('{}'))
  folder = makeTempDir('fitconform-bad-input-')
})
afterAll(() => server.close())

async function file(name: string, text: string): Promise<string> {
  const path = join(folder, name)
  await writeFile(path, text)
  return path
}

const VALID_STEP =
  '    steps:\n      - name: read\n        request: { method: GET, url: /user }\n        expect: { status: 200 }\n'

describe('bad input to the tool: exit 2 and one clear message, before any request is sent', () => {
  it.each([
    {
      case: 'a base URL that is not a URL',
      args: ['run', 'suites/user', '--base-url', 'not a url'],
      message: /not a URL/,
    },
    {
      case: 'a base URL with another scheme',
      args: ['run', 'suites/user', '--base-url', 'ftp://example.org'],
      message: /only http and https/,
    },
    { case: 'a bad --shard', args: ['run', '--shard', '0/2'], message: /i\/n/ },
    { case: 'a bad --concurrency', args: ['run', '--concurrency', 'lots'], message: /whole number/ },
    {
      case: 'an unknown flag',
      args: ['run', '--bse-url', 'http://x'],
      message: /unknown option '--bse-url'[\s\S]*--base-url/,
    },
    {
      case: 'a scenario path that does not exist',
      args: ['run', 'suites/nope'],
      message: /no such file or folder: suites\/nope/,
    },
    { case: 'a bad --grep', args: ['run', '--grep', '('], message: /--grep "\(" is not a valid pattern/ },
  ])('$case', async ({ args, message }) => {
    const before = server.requests.length
    const outcome = await runCli(args.map((arg) => arg.replace('http://x', server.url)))
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(message)
    expect(server.requests.length).toBe(before)
  })

  it('an unknown token role in the config file, with file:line:col', async () => {
    const config = await file('config.yaml', `baseUrl: ${server.url}\ntokens:\n  token: abc\n  admin-token: xyz\n`)
    const outcome = await runCli(['run', 'suites/user', '--config', config])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain('unknown token role "admin-token"')
    expect(outcome.stderr).toMatch(/config\.yaml:4:3/)
  })

  it('an unknown rule id, with did-you-mean and file:line:col', async () => {
    const scenario = await file(
      'rule.yaml',
      `scenarios:\n  - id: x\n    title: x\n    rules: [USER-REED]\n${VALID_STEP}`,
    )
    const outcome = await runCli(['run', scenario, '--base-url', server.url, '--token', 'bad-input-token'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/rule\.yaml:4:13/)
    expect(outcome.stderr).toContain('did you mean "USER-READ"?')
  })

  it('a schema that does not exist, naming the known ones', async () => {
    const scenario = await file(
      'schema.yaml',
      `scenarios:\n  - id: y\n    title: y\n    rules: [USER-READ]\n    steps:\n      - name: read\n        request: { method: GET, url: /user }\n        expect: { status: 200, schema: Usr }\n`,
    )
    const outcome = await runCli(['run', scenario, '--base-url', server.url, '--token', 'bad-input-token'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/schema\.yaml:8:40/)
    expect(outcome.stderr).toMatch(/"Usr", not one of User, FitnessActivityFeed/)
    expect(outcome.stderr).toContain('did you mean "User"?')
  })

  it('a status written as a word, listing the shapes a status takes instead of "must be object"', async () => {
    const scenario = await file(
      'status.yaml',
      `scenarios:\n  - id: y\n    title: y\n    rules: [USER-READ]\n    steps:\n      - name: read\n        request: { method: GET, url: /user }\n        expect: { status: created }\n`,
    )
    const outcome = await runCli(['run', scenario, '--base-url', server.url, '--token', 'bad-input-token'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/status\.yaml:8:27/)
    expect(outcome.stderr).toContain(
      'expect.status is "created", which is none of: a whole number; a list; one of 1xx, 2xx, 3xx, 4xx, 5xx; a map of matchers',
    )
    expect(outcome.stderr).toContain('a class such as 2xx')
    expect(outcome.stderr).not.toContain('must be object')
  })

  it('a scenario file nested 200,000 deep: the place it passes the limit, not an internal error (issue 25)', async () => {
    const scenario = await file(
      'deep.yaml',
      `scenarios:\n  - id: z\n    title: z\n    rules: [USER-READ]\n    steps:\n      - name: read\n        request: { method: POST, url: /user, json: ${'['.repeat(200_000)}${']'.repeat(200_000)} }\n        expect: { status: 200 }\n`,
    )
    const before = server.requests.length
    const outcome = await runCli(['run', scenario, '--base-url', server.url, '--token', 'bad-input-token'])
    expect(outcome.stderr).toMatch(/error\[E_YAML_SYNTAX\]: nested deeper than 256 levels\n {2}--> .*deep\.yaml:7:\d+/)
    expect(outcome.stderr).not.toContain('E_INTERNAL')
    expect(outcome.code).toBe(2)
    expect(server.requests.length).toBe(before)
  })

  it('prints help with exit 0, and documents every flag of run', async () => {
    const outcome = await runCli(['run', '--help'])
    expect(outcome.code).toBe(0)
    for (const flag of [
      '--base-url',
      '--token',
      '--other-token',
      '--revoked-token',
      '--revoked-delete-token',
      '--limited-token',
      '--config',
      '--reporter',
      '--output-dir',
      '--grep',
      '--tag',
      '--shard',
      '--concurrency',
      '--timeout',
      '--bail',
      '--strict',
      '--read-only',
    ]) {
      expect(outcome.stdout).toContain(flag)
    }
    // Issue 28 problem 10: every exit code, 130 included.
    expect(outcome.stdout).toMatch(/Exit codes: 0 .*, 1 .*, 2 .*, 3 .*, 130 interrupted/s)
  })
})

describe('config file values are checked before anything is sent', () => {
  it('names an unknown key under values, with its place', async () => {
    const config = await file(
      'values.yaml',
      `baseUrl: ${server.url}\ntokens: { token: abc }\nvalues:\n  activitytype: Running\n`,
    )
    const outcome = await runCli(['run', 'suites/user', '--config', config])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain('unknown key "activitytype" under values')
    expect(outcome.stderr).toMatch(/values\.yaml:4:3/)
  })
})
