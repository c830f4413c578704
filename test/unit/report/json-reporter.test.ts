import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { applyKnownFailures } from '../../../src/expectations/apply-known-failures.js'
import { createJsonReporter } from '../../../src/report/json-reporter.js'
import { createMultiplexer } from '../../../src/report/multiplexer.js'
import { planOf, runResult, sampleRun, scenario } from '../../fixtures/report/build-result.js'

const schemaFile = path.join(import.meta.dirname, '../../../schemas/report.schema.json')
const schema = JSON.parse(await readFile(schemaFile, 'utf8')) as Record<string, unknown>
const ajv = new Ajv2020({ strict: true, allErrors: true })
addFormats.default(ajv)
const validate = ajv.compile(schema)

function problems(data: unknown): string[] {
  return validate(data) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`)
}

describe('schemas/report.schema.json', () => {
  it('has the 2020-12 dialect and its stable $id', () => {
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema['$id']).toBe('https://fitconform.dev/schemas/report.schema.json')
  })

  it('accepts a minimal hand-built result', () => {
    expect(problems(runResult([scenario()]))).toEqual([])
  })

  it('accepts a realistic run with failures, errors, skips, warnings and known failures', () => {
    const result = applyKnownFailures(sampleRun(), [{ scenario: 'activity-read', reason: 'slow staging server', at: { file: 'k.yaml', line: 1, column: 3 } }])
    const written = JSON.parse(JSON.stringify(result)) as unknown
    expect(problems(written)).toEqual([])
  })

  it('rejects a result whose scenario status is unknown', () => {
    const bad = { ...runResult([scenario()]), scenarios: [{ ...scenario(), status: 'flaky' }] }
    expect(problems(bad)).toContain('/scenarios/0/status must be equal to one of the allowed values')
  })
})

describe('json reporter', () => {
  let dir = ''
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('writes results.json that matches the schema, with personal data masked', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    const result = sampleRun()
    await createJsonReporter({ outputDir: 'reports', cwd: dir }).onRunEnd?.(result, planOf(result))
    const text = await readFile(path.join(dir, 'reports', 'results.json'), 'utf8')
    const written = JSON.parse(text) as typeof result
    expect(problems(written)).toEqual([])
    expect(written.summary).toEqual({ total: 6, passed: 2, failed: 3, skipped: 1, warnings: 1 })
    expect(written.schemaVersion).toBe(1)
    expect(text).not.toContain('Lovelace')
    expect(text).toContain('"location": "L… [masked]"')
  })

  it('keeps personal data when asked', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    const result = sampleRun()
    await createJsonReporter({ outputDir: dir, showPersonalData: true }).onRunEnd?.(result, planOf(result))
    expect(JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(result)))
  })

  it('records the errors of other reporters in the diagnostics', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    const broken = { onScenarioEnd: () => Promise.reject(new Error('template missing')) }
    const multiplexer = createMultiplexer([broken, createJsonReporter({ outputDir: dir })])
    const result = sampleRun()
    await multiplexer.onScenarioEnd(result.scenarios[0]!)
    await multiplexer.onRunEnd(result, planOf(result))
    const written = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as typeof result
    expect(written.diagnostics).toEqual([{ code: 'E_REPORTER', kind: 'internal', message: 'reporter #1 failed in onScenarioEnd: template missing' }])
    expect(problems(written)).toEqual([])
  })
})
