// The reproduction line of a raw-socket probe must show what the runner saw: run with bash against
// the mutant that writes a body after HEAD, it prints the stray bytes; against the reference server
// it prints none and finishes. curl cannot show bytes after a HEAD, so the line uses bash's /dev/tcp.
import { spawn } from 'node:child_process'
import { afterEach, expect, it } from 'vitest'
import { curlLine, RAW_LINE_MAX_SECONDS } from '../../../src/execute/http/curl-line.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'

const ACTIVITY = 'application/vnd.com.service.FitnessActivity+json'
let server: RunningReferenceServer | undefined
afterEach(() => server?.close())

/** Creates one activity through the API and returns the reproduction line of a HEAD probe of it. */
async function headProbeLine(started: RunningReferenceServer): Promise<string> {
  const created = await fetch(`${started.url}/fitnessActivities`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${started.tokens.token}`,
      'content-type': 'application/vnd.com.service.NewFitnessActivity+json',
    },
    body: JSON.stringify({
      type: 'Running',
      equipment: 'None',
      start_time: 'Sat, 1 Jul 1989 07:00:00',
      notes: 'fitconform raw probe',
      path: [],
    }),
  })
  expect(created.status).toBe(201)
  const url = new URL(created.headers.get('location')!, started.url).toString()
  return curlLine(
    { method: 'HEAD', url, headers: { accept: ACTIVITY, authorization: `Bearer ${started.tokens.token}` }, wire: true },
    'token',
  )
}

/** Runs the line as a user would in a terminal. stdin is /dev/null: bash reads ~/.bashrc when stdin is a socket, as Node's pipes are. */
function runLine(line: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], {
      env: { PATH: process.env.PATH ?? '', FITCONFORM_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: (RAW_LINE_MAX_SECONDS + 10) * 1000,
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`the line exited ${code}: ${out}`))))
  })
}

it('shows the bytes a server writes after a HEAD answer, and finishes against the reference server', async () => {
  server = await startReferenceServer({ mutant: 'head-with-body' })
  const mutantLine = await headProbeLine(server)
  expect(mutantLine).not.toContain(server.tokens.token)
  const fromMutant = await runLine(mutantLine, server.tokens.token)
  const [mutantHead, mutantStray] = fromMutant.split('\r\n\r\n')
  expect(mutantHead).toMatch(/^HTTP\/1\.1 200/)
  expect(mutantStray).toContain('"uri":"/fitnessActivities/')
  await server.close()

  server = await startReferenceServer()
  const fromReference = await runLine(await headProbeLine(server), server.tokens.token)
  const [referenceHead, referenceRest] = fromReference.split('\r\n\r\n')
  expect(referenceHead).toMatch(/^HTTP\/1\.1 200/)
  expect(referenceHead).toMatch(/content-length: \d+/i)
  expect(referenceRest).toBe('')
}, 40_000)
