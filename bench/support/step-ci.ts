/**
 * Step CI 2.8.2 as the peer of the 500-test workload (issue 15). It is not a dependency of ours (its
 * install is ~95 MB and 250 packages, telemetry included): the bench installs it with npm into a
 * folder under the system's temporary directory, once, and reuses that folder on later runs.
 * Analytics are switched off (STEPCI_DISABLE_ANALYTICS) so that nothing leaves the machine.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const STEP_CI_VERSION = '2.8.2'
const INSTALL_DIR = join(tmpdir(), `fitconform-bench-stepci-${STEP_CI_VERSION}`)
const ENTRY = join(INSTALL_DIR, 'node_modules', 'stepci', 'dist', 'index.js')

export type StepCiInstall = { readonly entry: string } | { readonly missing: string }

/** Installs Step CI into the temporary folder unless it is there; says why when it cannot. */
export async function installStepCi(): Promise<StepCiInstall> {
  if (existsSync(ENTRY)) return { entry: ENTRY }
  mkdirSync(INSTALL_DIR, { recursive: true })
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const child = spawn(
    npm,
    [
      'install',
      '--prefix',
      INSTALL_DIR,
      `stepci@${STEP_CI_VERSION}`,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel',
      'error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const stderr: Buffer[] = []
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  if (code === 0 && existsSync(ENTRY)) return { entry: ENTRY }
  const reason =
    Buffer.concat(stderr)
      .toString('utf8')
      .split('\n')
      .find((line) => line.trim() !== '') ?? `npm exited ${String(code)}`
  return { missing: `not installed (npm install stepci@${STEP_CI_VERSION} failed: ${reason.slice(0, 200)})` }
}

/**
 * The workload of bench/throughput.ts as a Step CI workflow: `count` tests, each one GET /user with
 * the token, checking status 200 and that body.userID is a number (Step CI has no integer matcher).
 */
export function stepCiWorkflow(count: number, baseUrl: string, token: string): string {
  const lines = ['version: "1.1"', 'name: throughput', 'env:', `  base: ${baseUrl}`, 'tests:']
  for (let index = 1; index <= count; index++) {
    lines.push(
      `  throughput-${String(index).padStart(4, '0')}:`,
      '    steps:',
      '      - name: read the entry point',
      '        http:',
      '          url: ${{env.base}}/user',
      '          method: GET',
      '          headers:',
      `            Authorization: Bearer ${token}`,
      '          check:',
      '            status: 200',
      '            jsonpath:',
      '              $.userID:',
      '                - isNumber: true',
    )
  }
  return lines.join('\n') + '\n'
}

/** `stepci run <workflow>` arguments for runNode, and the environment that keeps it offline. */
export function stepCiRun(entry: string, workflow: string): { args: string[]; env: NodeJS.ProcessEnv } {
  return { args: [entry, 'run', workflow], env: { STEPCI_DISABLE_ANALYTICS: '1' } }
}
