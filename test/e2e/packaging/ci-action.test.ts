// The CI action as GitHub would run it: action.yml's own step environment, with each `${{ inputs.X }}`
// replaced by the input's default (or by what a workflow would pass), runs scripts/ci-action.sh in a
// fresh workspace. Only loopback servers: the default inputs run the embedded reference server.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { REPO_ROOT } from '../../helpers/cli.js'

interface ActionStep {
  id?: string
  run?: string
  uses?: string
  env?: Record<string, string>
  with?: Record<string, string>
  if?: string
}
interface Action {
  inputs: Record<string, { default: string }>
  runs: { using: string; steps: ActionStep[] }
}

const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as Action
const SCRIPT = join(REPO_ROOT, 'scripts', 'ci-action.sh')

/** The script step's environment with the inputs filled in, as the runner would. */
function stepEnv(inputs: Record<string, string> = {}): Record<string, string> {
  const step = action.runs.steps.find((each) => each.id === 'run')!
  return Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [
      name,
      value.replace(
        /\$\{\{ inputs\.([\w-]+) \}\}/g,
        (_, input: string) => inputs[input] ?? action.inputs[input]!.default,
      ),
    ]),
  )
}

interface Outcome {
  code: number | null
  stdout: string
  summary: string
  outputs: string
  workspace: string
}

const workspaces: string[] = []

function runAction(inputs: Record<string, string> = {}, files: Record<string, string> = {}): Promise<Outcome> {
  const workspace = mkdtempSync(join(tmpdir(), 'fitconform-action-'))
  workspaces.push(workspace)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true })
    writeFileSync(join(workspace, name), text)
  }
  const summaryFile = join(workspace, 'step-summary.md')
  const outputFile = join(workspace, 'github-output.txt')
  writeFileSync(summaryFile, '')
  writeFileSync(outputFile, '')
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: workspace,
    NO_COLOR: '1',
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    ...stepEnv(inputs),
  }
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        summary: readFileSync(summaryFile, 'utf8'),
        outputs: readFileSync(outputFile, 'utf8'),
        workspace,
      }),
    )
  })
}

afterAll(() => {
  for (const workspace of workspaces) rmSync(workspace, { recursive: true, force: true })
})

it('is a composite action whose working step is the one script, and whose report upload runs even after a failure', () => {
  expect(action.runs.using).toBe('composite')
  const steps = action.runs.steps
  expect(steps[0]!.uses).toMatch(/^actions\/setup-node@/)
  expect(steps.filter((step) => step.run).map((step) => step.run)).toEqual([
    'bash "$GITHUB_ACTION_PATH/scripts/ci-action.sh"',
  ])
  const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!
  expect(upload.if).toContain('always()')
  expect(upload.with!['path']).toBe('${{ inputs.output-dir }}/report.html')
})

it('with the default inputs runs the whole suite on the embedded reference server, writes the reports and the job summary', async () => {
  const outcome = await runAction()
  expect(outcome.code, outcome.stdout).toBe(0)
  expect(outcome.outputs).toBe('exit-code=0\nreport-dir=reports\n')
  expect(outcome.summary).toMatch(/^## fitconform: \d+ passed, 0 failed/)
  for (const file of ['report.html', 'junit.xml', 'results.json', 'summary.md'])
    expect(existsSync(join(outcome.workspace, 'reports', file)), file).toBe(true)
}, 240_000)

describe('against a server that breaks a rule', () => {
  let server: RunningReferenceServer
  beforeAll(async () => (server = await startReferenceServer({ mutant: 'has-map-boolean' })))
  afterAll(() => server.close())

  const inputs = (): Record<string, string> => ({
    'base-url': server.url,
    token: server.tokens.token,
    paths: join(REPO_ROOT, 'suites', 'activity', 'lifecycle.yaml'),
    reporters: 'console,html',
  })

  it('fails the step with exit 1, names the rule in the summary and never writes the token', async () => {
    const outcome = await runAction(inputs())
    expect(outcome.code, outcome.stdout).toBe(1)
    expect(outcome.outputs).toContain('exit-code=1\n')
    expect(outcome.summary).toContain('ACTIVITY-HAS-MAP-TEXT')
    expect(existsSync(join(outcome.workspace, 'reports', 'report.html'))).toBe(true)
    expect(outcome.summary + outcome.stdout + outcome.outputs).not.toContain(server.tokens.token)
  }, 120_000)

  it('passes with expect-failures listing that rule, and fails on skip when fail-on-skip is true', async () => {
    const known = { 'known.yaml': '- rule: ACTIVITY-HAS-MAP-TEXT\n  reason: has_map is still a boolean\n' }
    const expected = await runAction({ ...inputs(), 'expect-failures': 'known.yaml' }, known)
    expect(expected.code, expected.stdout).toBe(0)
    const skipping = await runAction(
      {
        ...inputs(),
        'expect-failures': 'known.yaml',
        paths: join(REPO_ROOT, 'suites', 'security'),
        'fail-on-skip': 'true',
      },
      known,
    )
    expect(skipping.stdout).toContain('--fail-on-skip')
    expect(skipping.code).toBe(1)
  }, 120_000)
})

it('refuses a server with an empty token input (a secret a fork cannot read) with exit 2, as the CLI does', async () => {
  const outcome = await runAction({ 'base-url': 'http://127.0.0.1:9', token: '' })
  expect(outcome.code, outcome.stdout).toBe(2)
  expect(outcome.stdout).toContain('FITCONFORM_TOKEN')
  expect(outcome.summary).not.toMatch(/passed/)
  expect(outcome.outputs).toContain('exit-code=2\n')
}, 60_000)

it('exits 3 and says so in the summary when the server cannot be reached', async () => {
  const outcome = await runAction({ 'base-url': 'http://127.0.0.1:9', token: 'a-token-nobody-checks' })
  expect(outcome.code, outcome.stdout).toBe(3)
  expect(outcome.summary).toContain('the server under test cannot be reached')
  expect(outcome.outputs).toContain('exit-code=3\n')
}, 60_000)

it('says in the summary that the token was refused (exit 3), and leaves no earlier report to be uploaded as this one', async () => {
  const server = await startReferenceServer()
  try {
    const stale = {
      'reports/results.json': '{"summary":{"passed":42,"failed":0}}',
      'reports/report.html': '<p>all green</p>',
    }
    const outcome = await runAction({ 'base-url': server.url, token: 'a-token-this-server-never-issued' }, stale)
    expect(outcome.code, outcome.stdout).toBe(3)
    expect(outcome.summary).toContain('the token was refused (401)')
    expect(outcome.summary).toContain('--token')
    expect(outcome.summary).not.toContain('a-token-this-server-never-issued')
    for (const file of ['results.json', 'report.html'])
      expect(existsSync(join(outcome.workspace, 'reports', file)), file).toBe(false)
  } finally {
    await server.close()
  }
}, 60_000)
