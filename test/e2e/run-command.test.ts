import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../helpers/cli.js'
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js'
import { startReferenceProcess } from '../helpers/reference-process.js'
import { makeTempDir } from '../helpers/temp-dir.js'

const SECRET = 'sekrit-token-7f3a9c41e2'
const USER_MEDIA_TYPE = 'application/vnd.com.service.User+json'

/** A server that gets one thing wrong: userID is a string (§2.1 says integer). */
let wrongServer: LoopbackServer

beforeAll(async () => {
  wrongServer = await startLoopbackServer((request, response) => {
    if (request.url === '/user') {
      response.writeHead(200, { 'content-type': USER_MEDIA_TYPE })
      response.end(
        JSON.stringify({
          userID: '12',
          profile: '/profile',
          fitness_activities: '/fitnessActivities',
          echoed: String(request.headers.authorization),
        }),
      )
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('not here')
    }
  })
})
afterAll(() => wrongServer.close())

async function allFilesText(folder: string): Promise<string> {
  const names = await readdir(folder, { recursive: true })
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8').catch(() => '')))
  return texts.join('\n')
}

describe('fitconform run', () => {
  it('fails a server that breaks a rule, naming the rule and showing expected vs actual (exit 1)', async () => {
    const outputDir = makeTempDir('fitconform-e2e-')
    const outcome = await runCli([
      'run',
      'suites/user',
      '--base-url',
      wrongServer.url,
      '--token',
      SECRET,
      '--output-dir',
      outputDir,
    ])
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toContain('USER-FIELDS')
    expect(outcome.stdout).toMatch(/userID/)
    expect(outcome.stdout).toMatch(/integer/)
    expect(outcome.stdout).toMatch(/"12"/)
    const results = JSON.parse(await readFile(join(outputDir, 'results.json'), 'utf8')) as {
      summary: { failed: number }
    }
    expect(results.summary.failed).toBeGreaterThan(0)
    // The server echoed the token back in its body: it must still appear nowhere we wrote.
    expect(outcome.stdout + outcome.stderr).not.toContain(SECRET)
    expect(await allFilesText(outputDir)).not.toContain(SECRET)
  })

  it('rejects a malformed scenario file with file:line:col before sending anything (exit 2)', async () => {
    const folder = makeTempDir('fitconform-bad-yaml-')
    const file = join(folder, 'broken.yaml')
    await writeFile(
      file,
      'scenarios:\n  - id: broken\n    title: x\n    rules: [USER-READ]\n    steps:\n      - name: read\n        request: { method: GET, url: /user }\n        expct: { status: 200 }\n',
    )
    const before = wrongServer.requests.length
    const outcome = await runCli(['run', file, '--base-url', wrongServer.url, '--token', SECRET])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/broken\.yaml:8:9/)
    expect(outcome.stderr).toContain('did you mean "expect"?')
    expect(wrongServer.requests.length).toBe(before)
  })

  it('refuses a run against a server without a token (exit 2, naming --token and FITCONFORM_TOKEN), also when the variable is empty, and sends nothing', async () => {
    const before = wrongServer.requests.length
    for (const env of [{}, { FITCONFORM_TOKEN: '' }] as Record<string, string>[]) {
      const outcome = await runCli(['run', 'suites/user', '--base-url', wrongServer.url, '--reporter', 'console'], {
        env,
      })
      expect(outcome.code, outcome.stderr).toBe(2)
      expect(outcome.stderr).toContain('--token')
      expect(outcome.stderr).toContain('FITCONFORM_TOKEN')
      expect(outcome.stdout).not.toMatch(/passed/)
    }
    expect(wrongServer.requests.length).toBe(before)
  })

  it("removes the previous run's reports when a run ends before any scenario (exit 2 or 3), so CI cannot publish them as this run's", async () => {
    const closed = await startLoopbackServer(() => undefined)
    await closed.close()
    const cases = [
      { args: ['run', 'suites/user', '--base-url', closed.url, '--token', SECRET], code: 3 },
      { args: ['run', 'suites/user', '--grep', 'no-scenario-has-this-id'], code: 2 },
    ]
    for (const { args, code } of cases) {
      const outputDir = makeTempDir('fitconform-stale-')
      for (const name of ['results.json', 'junit.xml', 'keep.txt'])
        await writeFile(join(outputDir, name), 'from an earlier run')
      const outcome = await runCli([...args, '--output-dir', outputDir])
      expect(outcome.code, outcome.stderr).toBe(code)
      expect((await readdir(outputDir)).sort()).toEqual(['keep.txt'])
      expect(outcome.stderr).toContain("Removed the previous run's reports")
    }
  })

  it('leaves no ledger in the output folder once the run has undone everything it changed', async () => {
    const outputDir = makeTempDir('fitconform-ledger-')
    const outcome = await runCli([
      'run',
      'suites/activity/lifecycle.yaml',
      '--output-dir',
      outputDir,
      '--reporter',
      'console,json',
    ])
    expect(outcome.code, outcome.stdout).toBe(0)
    expect(outcome.stderr).toMatch(/Account changes: created [1-9]/)
    expect(await readdir(outputDir)).toEqual(['results.json'])
  })

  it('exits 3 when the server cannot be reached at all', async () => {
    const closed = await startLoopbackServer(() => undefined)
    await closed.close()
    const outcome = await runCli(['run', 'suites/user', '--base-url', closed.url, '--token', SECRET])
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toContain('E_UNREACHABLE')
  })

  it('skips scenarios whose token role was not given, and --fail-on-skip turns that into exit 1', async () => {
    const lenient = await runCli([
      'run',
      'suites/security',
      '--base-url',
      wrongServer.url,
      '--token',
      SECRET,
      '--reporter',
      'console',
    ])
    expect(lenient.stdout).toMatch(/needs --other-token/)
    const strict = await runCli([
      'run',
      'suites/security',
      '--grep',
      'feeds',
      '--base-url',
      wrongServer.url,
      '--token',
      SECRET,
      '--reporter',
      'console',
      '--fail-on-skip',
    ])
    expect(strict.code).toBe(1)
  }, 90_000) // two CLI runs: on two loaded cores each can take 20 s

  it('skips a permission-matrix cell whose token was not given, and --fail-on-skip counts it', async () => {
    const reference = await startReferenceProcess()
    try {
      const args = ['run', 'suites/permissions', '--grep', 'get-user', '--base-url', reference.url]
      args.push('--token', 'demo-token-alice', '--reporter', 'console')
      const lenient = await runCli(args)
      expect(lenient.code).toBe(0)
      const strict = await runCli([...args, '--fail-on-skip'])
      expect(strict.code).toBe(1)
      expect(strict.stderr).toContain('--fail-on-skip: 0 scenario(s) and 2 permission-matrix step(s) skipped')
    } finally {
      reference.stop()
    }
  })

  it('never shows an untested permission-matrix cell as passed: every output counts it skipped and names the missing flags and their rules, top and bottom', async () => {
    const reference = await startReferenceProcess()
    try {
      const outputDir = makeTempDir('fitconform-not-tested-')
      const outcome = await runCli([
        'run',
        'suites/permissions',
        '--base-url',
        reference.url,
        '--token',
        'demo-token-alice',
        '--other-token',
        'demo-token-bob',
        '--reporter',
        'console,json,junit,markdown',
        '--output-dir',
        outputDir,
        '--fail-on-skip',
      ])
      expect(outcome.code, outcome.stderr).toBe(1)
      const results = JSON.parse(await readFile(join(outputDir, 'results.json'), 'utf8')) as {
        summary: { skippedCells: number }
        notTested: { flag: string; rules: string[] }[]
        failedOnSkip: { cells: number }
      }
      const cells = results.summary.skippedCells
      expect(cells).toBeGreaterThan(0)
      expect(results.failedOnSkip.cells).toBe(cells)
      expect(results.notTested.map((entry) => [entry.flag, entry.rules])).toEqual([
        // ERROR-FIELDS (§7's body) is judged only on 403s, which only these three tokens get.
        ['--revoked-token', ['ERROR-403-REVOKED', 'ERROR-FIELDS']],
        ['--revoked-delete-token', ['ERROR-403-REVOKED-DELETE', 'ERROR-FIELDS']],
        ['--limited-token', ['ERROR-403-INSUFFICIENT', 'ERROR-FIELDS']],
      ])
      const closing = `skipped (and ${cells} permission-matrix cells)`
      expect(outcome.stdout.trimEnd().split('\n').at(-1)).toContain(closing)
      expect(outcome.stdout).toContain(
        `FAILED by --fail-on-skip: 0 scenarios and ${cells} permission-matrix cells skipped`,
      )
      const notTestedLine = '--limited-token (or FITCONFORM_LIMITED_TOKEN) not given'
      expect(outcome.stdout.split(notTestedLine).length - 1).toBe(2) // at the top and at the bottom
      expect(outcome.stdout).not.toContain('--other-token (or FITCONFORM_OTHER_TOKEN) not given')
      const markdown = await readFile(join(outputDir, 'summary.md'), 'utf8')
      expect(markdown.split('\n')[0]).toContain(closing)
      expect(markdown.split('\n')[0]).toContain('FAILED by --fail-on-skip')
      expect(markdown.split('--limited-token (or FITCONFORM\\_LIMITED\\_TOKEN) not given').length - 1).toBe(2)
      const junit = await readFile(join(outputDir, 'junit.xml'), 'utf8')
      expect(junit.match(/<testcase [^>]*name="[^"]*with limited-token"[^>]*>\s*<skipped /g)?.length).toBeGreaterThan(0)
      expect(junit.match(/<skipped /g)?.length).toBe(cells)
    } finally {
      reference.stop()
    }
  }, 90_000)

  it('names a revoked or limited token the server refuses with 401 before its scenarios fail, and still fails them under their rule', async () => {
    const reference = await startReferenceProcess()
    try {
      const outcome = await runCli([
        'run',
        'suites/permissions',
        '--grep',
        'get-user',
        '--base-url',
        reference.url,
        '--token',
        'demo-token-alice',
        '--revoked-token',
        'demo-token-mistyped',
        '--reporter',
        'console',
      ])
      expect(outcome.code).toBe(1)
      expect(outcome.stdout).toMatch(
        /with --revoked-token: the token was refused with 401[^\n]*\n[\s\S]*hint: check --revoked-token/,
      )
      expect(outcome.stdout.indexOf('check --revoked-token')).toBeLessThan(outcome.stdout.indexOf('Failures by rule'))
      expect(outcome.stdout).toContain('✘ ERROR-403-REVOKED')
      expect(outcome.stdout + outcome.stderr).not.toContain('demo-token-mistyped')
    } finally {
      reference.stop()
    }
  }, 90_000)

  // The CLI runs from a code-cached script, where import() cannot run (scripts/bundle-cli.mjs): a
  // reporter module of the user's must still load, ES module or CommonJS.
  it('loads a reporter module of the user from --reporter, ES module or CommonJS', async () => {
    const folder = makeTempDir('fitconform-reporter-')
    await writeFile(
      join(folder, 'count.mjs'),
      `export default { onRunEnd: (result) => console.log('ESM reporter saw ' + result.summary.failed + ' failed') }\n`,
    )
    await writeFile(
      join(folder, 'count.cjs'),
      `module.exports = () => ({ onRunEnd: (result) => console.log('CJS reporter saw ' + result.summary.failed + ' failed') })\n`,
    )
    const outcome = await runCli(
      [
        'run',
        join(REPO_ROOT, 'suites/user'),
        '--base-url',
        wrongServer.url,
        '--token',
        SECRET,
        '--reporter',
        'console,./count.mjs,./count.cjs',
      ],
      { cwd: folder },
    )
    expect(outcome.stderr).not.toContain('cannot load reporter')
    expect(outcome.stdout).toMatch(/ESM reporter saw [1-9]\d* failed/)
    expect(outcome.stdout).toMatch(/CJS reporter saw [1-9]\d* failed/)
    expect(outcome.code).toBe(1)
  })

  it('rejects a --shard that is not i/n as a usage error', async () => {
    const outcome = await runCli(['run', '--shard', '3/2'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/i\/n/)
  })
})
