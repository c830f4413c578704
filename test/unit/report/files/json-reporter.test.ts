import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { createJsonReporter } from '../../../../src/report/files/json-reporter.js'
import { createMultiplexer } from '../../../../src/report/multiplexer.js'
import {
  assertion,
  planOf,
  reported,
  runResult,
  sampleRun,
  scenario,
  step,
} from '../../../fixtures/report/build-result.js'

const schemaFile = path.join(import.meta.dirname, '../../../../schemas/report.schema.json')
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
    expect(problems(reported(runResult([scenario()])))).toEqual([])
  })

  it('accepts a realistic run with failures, errors, skips, warnings and known failures', () => {
    const result = reported(sampleRun(), {
      known: [{ scenario: 'activity-read', reason: 'slow staging server', at: { file: 'k.yaml', line: 1, column: 3 } }],
    })
    const written = JSON.parse(JSON.stringify(result)) as unknown
    expect(problems(written)).toEqual([])
  })

  it('rejects a result whose scenario status is unknown', () => {
    const bad = { ...reported(runResult([scenario()])), scenarios: [{ ...scenario(), status: 'flaky' }] }
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
    const result = reported(sampleRun())
    await createJsonReporter({ outputDir: 'reports', cwd: dir }).onRunEnd?.(result, planOf(result))
    const text = await readFile(path.join(dir, 'reports', 'results.json'), 'utf8')
    const written = JSON.parse(text) as typeof result
    expect(problems(written)).toEqual([])
    expect(written.summary).toEqual({
      total: 6,
      passed: 2,
      failed: 3,
      skipped: 1,
      warnings: 1,
      expectedFailures: 0,
      unexpectedlyPassed: 0,
    })
    expect(written.schemaVersion).toBe(1)
    expect(text).not.toContain('Lovelace')
    expect(text).toContain('"location": "L… [masked]"')
  })

  it('keeps personal data when asked', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    const result = reported(sampleRun(), { showPersonalData: true })
    await createJsonReporter({ outputDir: dir }).onRunEnd?.(result, planOf(result))
    expect(JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(result)),
    )
  })

  it('records the errors of other reporters in the diagnostics', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    const broken = { onScenarioEnd: () => Promise.reject(new Error('template missing')) }
    const multiplexer = createMultiplexer([broken, createJsonReporter({ outputDir: dir })])
    const result = reported(sampleRun())
    await multiplexer.onScenarioEnd(result.scenarios[0]!)
    await multiplexer.onRunEnd(result, planOf(result))
    const written = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as typeof result
    expect(written.diagnostics).toEqual([
      { code: 'E_REPORTER', kind: 'internal', message: 'reporter #1 failed in onScenarioEnd: template missing' },
    ])
    expect(problems(written)).toEqual([])
  })

  it('writes rules[] with each rule judged only by the checks tagged with it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-json-'))
    // The scenario names three rules; only FEED-PAGE-SIZE's check failed, and the step after it was blocked.
    const blocked = {
      ...step({ name: 'read the next page', assertions: [] }),
      status: 'blocked' as const,
      attempts: 0,
      rules: ['ACTIVITY-READ'],
      block: { reason: 'not judged: step 1 "read a page" failed (FEED-PAGE-SIZE)', byRules: ['FEED-PAGE-SIZE'] },
    }
    const failing = scenario({
      id: 'feed-paging',
      rules: ['FEED-PAGE-SIZE', 'ACTIVITY-READ', 'USER-READ'],
      steps: [
        step({
          name: 'read a page',
          rules: ['FEED-PAGE-SIZE', 'USER-READ'],
          assertions: [
            assertion({ rules: ['USER-READ'] }),
            assertion({ ok: false, rules: ['FEED-PAGE-SIZE'], message: 'body.items: expected length 4, got 25' }),
          ],
        }),
        blocked,
      ],
    })
    const result = reported(runResult([failing]))
    await createJsonReporter({ outputDir: dir }).onRunEnd?.(result, planOf(result))
    const written = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8')) as typeof result
    expect(problems(written)).toEqual([])
    const byId = Object.fromEntries(written.rules.map((rule) => [rule.id, rule]))
    expect(byId['FEED-PAGE-SIZE']).toMatchObject({
      status: 'failed',
      failed: 1,
      blocked: 0,
      section: '§4 rule 2',
      scenarios: [{ id: 'feed-paging', status: 'failed' }],
    })
    expect(byId['USER-READ']).toMatchObject({ status: 'passed', failed: 0 })
    expect(byId['ACTIVITY-READ']).toMatchObject({
      status: 'blocked',
      failed: 0,
      blocked: 1,
      blockedBy: ['FEED-PAGE-SIZE'],
    })
    expect(byId['PROFILE-READ']).toMatchObject({ status: 'not-covered', scenarios: [] })
    expect(written.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id)).toEqual(['FEED-PAGE-SIZE'])
    expect(written.rules[0]!.id).toBe('FEED-PAGE-SIZE')
  })
})
