import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../helpers/cli.js'

const TOKENS = {
  '--token': 'demo-token-alice',
  '--other-token': 'demo-token-bob',
  '--revoked-token': 'demo-token-revoked',
  '--revoked-delete-token': 'demo-token-revoked-delete',
  '--limited-token': 'demo-token-limited',
}

let server: ChildProcess
let baseUrl: string

beforeAll(async () => {
  server = spawn(process.execPath, [join(REPO_ROOT, 'bin/fitconform.js'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  baseUrl = await new Promise<string>((resolve, reject) => {
    let output = ''
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    server.on('exit', (code) => reject(new Error(`fitconform serve exited with ${code}: ${output}`)))
  })
})
afterAll(() => {
  server.kill('SIGTERM')
})

/** Everything an account holds that the suite could touch: every feed page and every activity, as JSON. */
async function snapshot(token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.com.service.FitnessActivityFeed+json' }
  const items: unknown[] = []
  let next: string | undefined = `${baseUrl}/fitnessActivities?pageSize=50`
  while (next) {
    const page = (await (await request(next, { headers })).body.json()) as { items: { uri: string }[]; previous?: string }
    items.push(...page.items)
    next = page.previous
  }
  const activities = await Promise.all(
    items.map(async (item) => (await request(`${baseUrl}${(item as { uri: string }).uri}`, { headers: { authorization: `Bearer ${token}` } })).body.text()),
  )
  const profile = await (await request(`${baseUrl}/profile`, { method: 'PUT', body: '{}', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.com.service.Profile+json' } })).body.text()
  return JSON.stringify({ items, activities, profile })
}

it('passes every scenario against `fitconform serve` in another process and leaves both accounts as it found them', async () => {
  const before = [await snapshot(TOKENS['--token']), await snapshot(TOKENS['--other-token'])]
  const outputDir = await mkdtemp(join(tmpdir(), 'fitconform-serve-'))
  const outcome = await runCli(['run', '--base-url', baseUrl, ...Object.entries(TOKENS).flat(), '--output-dir', outputDir, '--reporter', 'console'])
  expect(outcome.stdout).toMatch(/\d+ passed, 0 failed, 0 skipped/)
  expect(outcome.code).toBe(0)
  const after = [await snapshot(TOKENS['--token']), await snapshot(TOKENS['--other-token'])]
  expect(after).toEqual(before)
}, 180_000)
