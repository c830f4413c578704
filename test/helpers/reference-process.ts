import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { request } from 'undici'
import { REPO_ROOT } from './cli.js'

export const DEMO_TOKEN_FLAGS = [
  '--token',
  'demo-token-alice',
  '--other-token',
  'demo-token-bob',
  '--revoked-token',
  'demo-token-revoked',
  '--revoked-delete-token',
  'demo-token-revoked-delete',
  '--limited-token',
  'demo-token-limited',
]

export interface ReferenceProcess {
  readonly url: string
  stop(): void
}

/** `fitconform serve --port 0` in its own process, as a user would start it. */
export async function startReferenceProcess(): Promise<ReferenceProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'bin/fitconform.js'), 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`fitconform serve exited with ${code}: ${output}`)))
  })
  return { url, stop: () => child.kill('SIGTERM') }
}

/** Everything an account holds that the suite could touch: every feed page, every activity, the profile. */
export async function snapshotAccount(baseUrl: string, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.com.service.FitnessActivityFeed+json' }
  const items: { uri: string }[] = []
  let next: string | undefined = `${baseUrl}/fitnessActivities?pageSize=50`
  while (next) {
    const page = (await (await request(next, { headers })).body.json()) as {
      items: { uri: string }[]
      previous?: string
    }
    items.push(...page.items)
    next = page.previous
  }
  const activities = await Promise.all(
    items.map(async (item) =>
      (await request(`${baseUrl}${item.uri}`, { headers: { authorization: `Bearer ${token}` } })).body.text(),
    ),
  )
  const profile = await (
    await request(`${baseUrl}/profile`, {
      method: 'PUT',
      body: '{}',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.com.service.Profile+json' },
    })
  ).body.text()
  return JSON.stringify({ items, activities, profile })
}
