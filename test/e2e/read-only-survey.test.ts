// `fitconform run --read-only` on a realistic account: the survey judges existing activities and the
// report lists the sample; --no-survey and a narrowed run leave it out; the cap flag stops the walk.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../reference-server/index.js'
import { runCli } from '../helpers/cli.js'
import { DEMO_TOKEN_FLAGS } from '../helpers/reference-process.js'
import { makeTempDir } from '../helpers/temp-dir.js'

interface Results {
  summary: { failed: number }
  scenarios: {
    id: string
    status: string
    skipReason?: string
    steps: { name: string; request?: { method: string } }[]
  }[]
}

let server: RunningReferenceServer
beforeAll(async () => {
  server = await startReferenceServer({ mode: 'realistic', historySize: 40 })
})
afterAll(() => server.close())

async function run(...extra: string[]): Promise<{ code: number | null; results: Results }> {
  const outputDir = makeTempDir('fitconform-survey-')
  const outcome = await runCli([
    'run',
    '--read-only',
    '--base-url',
    server.url,
    ...DEMO_TOKEN_FLAGS,
    '--reporter',
    'json',
    '--output-dir',
    outputDir,
    ...extra,
  ])
  return { code: outcome.code, results: JSON.parse(await readFile(join(outputDir, 'results.json'), 'utf8')) as Results }
}

describe('run --read-only against a realistic account', () => {
  it('judges existing activities, lists the sample, passes, and writes nothing', async () => {
    const { code, results } = await run()
    expect(code).toBe(0)
    const account = results.scenarios.find((scenario) => scenario.id === 'survey-account')!
    expect(
      account.steps.filter((step) => step.name.startsWith('sampled /fitnessActivities/')).length,
    ).toBeGreaterThanOrEqual(5)
    const surveyed = results.scenarios.filter((scenario) => scenario.id.startsWith('survey-'))
    expect(surveyed.map((scenario) => scenario.status)).toEqual(surveyed.map(() => 'passed'))
    const methods = new Set(
      results.scenarios.flatMap((scenario) => scenario.steps.map((step) => step.request?.method).filter(Boolean)),
    )
    expect([...methods].sort()).toEqual(['GET', 'HEAD'])
  })

  it('leaves the survey out with --no-survey, and when a path narrows the run', async () => {
    for (const extra of [['--no-survey'], ['suites/user']]) {
      const { results } = await run(...extra)
      expect(
        results.scenarios.some((scenario) => scenario.id.startsWith('survey-')),
        extra.join(' '),
      ).toBe(false)
    }
  })

  it('stops the walk at --survey-max-activities and says so', async () => {
    const { results } = await run('suites/user', '--survey', '--survey-max-activities', '5')
    expect(results.scenarios.find((scenario) => scenario.id === 'survey-account')!.steps[0]!.name).toContain(
      'the cap (--survey-max-activities 5)',
    )
    expect(results.scenarios.find((scenario) => scenario.id === 'survey-paging-walks')!.skipReason).toContain(
      '--survey-max-activities 5',
    )
  })
})
