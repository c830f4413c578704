// Interop: Prism (@stoplight/prism-cli), run as a validation proxy with the document `fitconform openapi`
// writes, sits between the suite and a server and judges every exchange against the document. In front
// of the reference server it must find no response violation across the whole default suite (the
// suite's deliberately bad requests do show up as request violations); in front of a mutant that sends
// has_map as a boolean it must report that response. Prism 5.14.2 is the last release whose engines
// allow Node 20 (5.15+ needs Node 24); package.json "overrides" pins its Prism dependencies to
// versions of the same line.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { run } from '../../../src/api/run.js'
import { loadRules } from '../../../src/load/load-rules.js'
import type { RunResult } from '../../../src/model/result.js'
import { buildOpenApi } from '../../../src/openapi/build-openapi.js'
import { packageRoot } from '../../../src/shared/package-root.js'

const PRISM_CLI = join(
  dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
  'dist',
  'index.js',
)

interface RunningPrism {
  readonly url: string
  log(): string
  stop(): void
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

async function startPrism(document: string, upstream: string): Promise<RunningPrism> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [PRISM_CLI, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  )
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 90 s:\n${output}`)), 90_000)
    const check = (): void => {
      if (!output.includes('Prism is listening')) return
      clearTimeout(timer)
      resolve()
    }
    child.stdout!.on('data', check)
    child.once('exit', (code) => reject(new Error(`Prism exited with ${code}:\n${output}`)))
  })
  return { url: `http://127.0.0.1:${port}`, log: () => output, stop: () => child.kill() }
}

function violations(log: string, kind: 'request' | 'response'): string[] {
  return log
    .split('\n')
    .filter((line) => line.includes(`Violation: ${kind}`))
    .map((line) => line.slice(line.indexOf('Violation:')))
}

function requestsSent(result: RunResult): number {
  return result.scenarios
    .flatMap((scenario) => [...scenario.steps, ...scenario.cleanup])
    .filter((step) => step.request !== undefined).length
}

describe('Prism validating proxy with the generated document', () => {
  let dir: string
  let reference: RunningReferenceServer
  let mutant: RunningReferenceServer
  let prismReference: RunningPrism
  let prismMutant: RunningPrism

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fitconform-prism-'))
    const document = join(dir, 'openapi.json')
    const { rules } = await loadRules()
    writeFileSync(
      document,
      JSON.stringify(buildOpenApi({ rules, schemasDir: join(packageRoot(), 'schemas'), version: '0.0.0' })),
    )
    ;[reference, mutant] = await Promise.all([
      startReferenceServer(),
      startReferenceServer({ mutant: 'has-map-boolean' }),
    ])
    ;[prismReference, prismMutant] = await Promise.all([
      startPrism(document, reference.url),
      startPrism(document, mutant.url),
    ])
  }, 120_000)

  afterAll(async () => {
    prismReference?.stop()
    prismMutant?.stop()
    await Promise.all([reference?.close(), mutant?.close()])
    rmSync(dir, { recursive: true, force: true })
  })

  function tokensOf(server: RunningReferenceServer) {
    const t = server.tokens
    return {
      token: t.token,
      'other-token': t.otherToken,
      'revoked-token': t.revokedToken,
      'revoked-delete-token': t.revokedDeleteToken,
      'limited-token': t.limitedToken,
    }
  }

  it('sees the whole default suite against the reference server and reports no response violation', async () => {
    const outcome = await run({
      baseUrl: prismReference.url,
      tokens: tokensOf(reference),
      outputDir: join(dir, 'reference'),
    })
    expect(outcome.kind).toBe('ran')
    if (outcome.kind !== 'ran') return
    const log = prismReference.log()
    const forwarded = log.split('\n').filter((line) => line.includes('Forwarding')).length
    expect(forwarded).toBeGreaterThanOrEqual(requestsSent(outcome.result))
    expect(forwarded).toBeGreaterThan(200)
    expect(violations(log, 'response')).toEqual([])
    // The suite's deliberately bad requests (wrong body types, no token): Prism is judging the traffic.
    expect(violations(log, 'request')).toContain('Violation: request Invalid security scheme used')
    expect(violations(log, 'request').some((line) => line.startsWith('Violation: request.body'))).toBe(true)
  }, 180_000)

  it('reports a response violation in front of a mutant that sends has_map as a boolean', async () => {
    const outcome = await run({
      baseUrl: prismMutant.url,
      tokens: tokensOf(mutant),
      paths: [join(packageRoot(), 'suites', 'activity', 'lifecycle.yaml')],
      outputDir: join(dir, 'mutant'),
    })
    expect(outcome.kind).toBe('ran')
    expect(violations(prismMutant.log(), 'response')).toContainEqual(
      expect.stringMatching(/^Violation: response\.body\.has_map .*must be equal to one of the allowed values/),
    )
  }, 60_000)
})
