// Issue 17 item 3: record the whole default suite's traffic through the proxy (all five demo tokens),
// scaffold it, and run the scaffolded suite against the same server: every scenario must pass.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../helpers/temp-dir.js'
import { runScaffoldCommand } from '../../../../proxy/commands/scaffold-command.js'
import { startReferenceServer, type RunningReferenceServer } from '../../../../reference-server/index.js'
import { packageRoot } from '../../../../src/shared/package-root.js'
import { startTestProxy } from '../helpers.js'
import { demoTarget, runSuites } from './run-suites.js'

describe('scaffolding the whole default suite', () => {
  let server: RunningReferenceServer
  let outDir: string
  let recorded: { total: number; passed: number }
  const printed: string[] = []

  beforeAll(async () => {
    server = await startReferenceServer()
    const proxy = await startTestProxy(server.url)
    const original = await runSuites([join(packageRoot(), 'suites')], demoTarget(server, proxy.proxy.url))
    recorded = original.summary
    await proxy.stop()
    outDir = makeTempDir('fitconform-scaffold-suite-')
    const io = { out: (line: string) => printed.push(line), err: (line: string) => printed.push(line) }
    expect(await runScaffoldCommand([proxy.file], { output: outDir }, io)).toBe(0)
  }, 120_000)

  afterAll(async () => {
    await server.close()
  })

  it('runs green against the server it was recorded from', async () => {
    const result = await runSuites([outDir], demoTarget(server, server.url))
    const notPassed = result.scenarios
      .filter((scenario) => scenario.status !== 'passed')
      .flatMap((scenario) =>
        scenario.steps
          .filter((step) => step.status !== 'passed')
          .map(
            (step) =>
              `${scenario.id} › ${step.name} (${step.request?.method} ${step.request?.url}): ${
                step.error?.message ??
                step.assertions
                  .filter((a) => !a.ok)
                  .map((a) => a.message)
                  .join('; ')
              }`,
          ),
      )
    expect(notPassed).toEqual([])
    expect(recorded.passed).toBe(recorded.total)
    // The recording holds every kind of exchange the suite makes: one scenario per distinct flow or request shape.
    expect(result.summary.total).toBeGreaterThan(100)
  }, 120_000)
})
