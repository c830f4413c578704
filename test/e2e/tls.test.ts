import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeSelfSignedCertificate, type TestCertificate } from '../helpers/self-signed.js'

let certificate: TestCertificate
let server: Server
let url: string

beforeAll(async () => {
  certificate = makeSelfSignedCertificate()
  server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
    if (request.url === '/user') {
      response.writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' })
      response.end(JSON.stringify({ userID: 7, fitness_activities: '/fitnessActivities', profile: '/profile' }))
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const args = () => [
  'run',
  'suites/user',
  '--grep',
  'user-entry-point',
  '--base-url',
  url,
  '--token',
  'tls-test-token',
  '--reporter',
  'console',
]

it('refuses an untrusted certificate with a hint, as "cannot be reached" (exit 3)', async () => {
  const outcome = await runCli(args())
  expect(outcome.code).toBe(3)
  expect(outcome.stderr).toMatch(/TLS certificate .* not trusted/)
  expect(outcome.stderr).toContain('--ca FILE')
})

it('trusts a private CA given with --ca', async () => {
  const outcome = await runCli([...args(), '--ca', certificate.certFile])
  expect(outcome.stdout).toMatch(/1 passed, 0 failed/)
  expect(outcome.code).toBe(0)
})

it('skips verification with --insecure', async () => {
  const outcome = await runCli([...args(), '--insecure'])
  expect(outcome.code).toBe(0)
})
