import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'
import { restrictedImports } from '../../helpers/restricted-imports.js'

// The folder boundaries of eslint.config.js, asked about files at every depth: an import pattern written for
// one folder level (`../execute/*`) let src/report/html/** and proxy/analyze/rules/** through.
const root = fileURLToPath(new URL('../../..', import.meta.url))
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

describe('import boundaries', () => {
  it.each([
    ['src/report/html/deep-file.ts', '../../execute/run-plan.js', 'reporters see only src/model data'],
    ['src/report/console-summary.ts', '../execute/run-plan.js', 'reporters see only src/model data'],
    ['src/execute/nested/deep-file.ts', '../../report/registry.js', 'it imports nothing from report/'],
    ['src/model/nested/deep-file.ts', '../result.js', 'src/model imports nothing'],
    ['src/plan/a/b/deep-file.ts', '../../../load/load-suites.js', 'src/plan is pure'],
    ['src/spec/fuzz/deep-file.ts', '../../execute/step/run-step.js', 'the engine uses it'],
    ['src/execute/http/send-request.ts', '../step/run-step.js', 'execute/http sends requests'],
    ['src/execute/http/http-client.ts', '../safety/ledger.js', 'execute/http sends requests'],
    ['src/execute/finalize/finalize-run.ts', '../run-context.js', 'execute/finalize is a stage of its own'],
    ['src/execute/finalize/redact.ts', '../http/http-client.js', 'execute/finalize is a stage of its own'],
    ['src/execute/step/run-step.ts', 'undici', 'only execute/http/http-client.ts imports undici'],
    ['proxy/analyze/rules/deep-rule.ts', '../../../src/execute/run-plan.js', 'proxy/ uses src/model'],
    ['reference-server/a/b/deep-file.ts', '../../../src/model/scenario.js', 'node built-ins only'],
    ['reference-server/data/seed.ts', '../../src/model/scenario.js', 'node built-ins only'],
    ['src/cli/options/run-options.ts', '../run-command.js', 'src/cli/options turns flags and config files'],
    ['src/cli/options/run-options.ts', '../../../reference-server/index.js', 'start the reference server'],
    ['reference-server/store/store.ts', '../http/reply.js', 'reference-server/store and data/ hold plain data'],
    ['reference-server/data/seed.ts', '../faults/mutants.js', 'reference-server/store and data/ hold plain data'],
    ['reference-server/store/a/deep-file.ts', '../../handlers/feed.js', 'reference-server/store and data/ hold plain'],
  ])('refuses %s importing %s', async (file, specifier, message) => {
    expect((await restrictedImports(file, specifier)).join('\n')).toContain(message)
  })

  it.each([
    ['src/execute/run-conformance.ts', '../../reference-server/index.js'],
    ['src/cli/run-command.ts', '../../reference-server/index.js'],
    ['src/report/html/deep-file.ts', '../../../reference-server/index.js'],
    ['src/validation/schema-registry.ts', '../../reference-server/index.js'],
    ['proxy/commands/mock-command.ts', '../../reference-server/index.js'],
  ])('names who may start the reference server: not %s', async (file, specifier) => {
    expect((await restrictedImports(file, specifier)).join('\n')).toMatch(/reference server/)
  })

  it('names who may start the reference server for import() too', async () => {
    const lint = async (filePath: string): Promise<string[]> => {
      const [result] = await eslint.lintText(`export const load = () => import('../../reference-server/index.js')\n`, {
        filePath,
      })
      return result!.messages.map((message) => message.message)
    }
    expect((await lint('src/execute/run-conformance.ts')).join('\n')).toMatch(/reference server/)
    expect(await lint('src/api/embedded-target.ts')).toEqual([])
  })

  it.each([
    ['src/cli/serve-command.ts', '../../reference-server/index.js'],
    ['src/api/embedded-target.ts', '../../reference-server/index.js'],
    ['src/selftest/run-selftest.ts', '../../reference-server/index.js'],
    ['src/report/html/deep-file.ts', '../../model/result.js'],
    ['proxy/analyze/rules/deep-rule.ts', '../../../src/model/exchange.js'],
    ['reference-server/data/seed.ts', '../store/model.js'],
    ['src/cli/options/run-options.ts', '../../api/defaults.js'],
    ['src/cli/run-command.ts', './options/run-options.js'],
    ['reference-server/handlers/feed.ts', '../faults/faults.js'],
    ['reference-server/http/send-reply.ts', '../faults/faults.js'],
  ])('lets %s import %s', async (file, specifier) => {
    expect(await restrictedImports(file, specifier)).toEqual([])
  })
})
