import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { DemoTokens } from '../../reference-server/index.js'

/** The fitconform folder (bench/ is compiled to dist/bench/support/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const CLI = join(PROJECT_ROOT, 'bin', 'fitconform.js')
/** The CLI as tsc wrote it, without the bundle and its code cache that bin/fitconform.js starts. */
export const PLAIN_CLI = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js')

/** A compiled bench module next to this one, e.g. `benchModule('reference-server-process.js')`. */
export function benchModule(name: string): string {
  return fileURLToPath(new URL(`../${name}`, import.meta.url))
}

export interface ServerProcess {
  readonly url: string
  readonly tokens: DemoTokens
  /** `--token … --limited-token …` for `fitconform run`. */
  readonly tokenFlags: readonly string[]
  stop(): Promise<void>
}

/** Starts the reference server in a child process (fresh store), optionally with added latency. */
export async function startServerProcess(options: { latencyMs?: number } = {}): Promise<ServerProcess> {
  const args = [benchModule('reference-server-process.js'), '--latency-ms', String(options.latencyMs ?? 0)]
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  const { url, tokens } = JSON.parse(await firstLine(child)) as { url: string; tokens: DemoTokens }
  return {
    url,
    tokens,
    tokenFlags: [
      '--token',
      tokens.token,
      '--other-token',
      tokens.otherToken,
      '--revoked-token',
      tokens.revokedToken,
      '--revoked-delete-token',
      tokens.revokedDeleteToken,
      '--limited-token',
      tokens.limitedToken,
    ],
    stop: () => stopChild(child),
  }
}

/** Starts a child that prints one line once ready (a URL or JSON); the line and a stop function. */
export async function startLineChild(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ line: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env, cwd: PROJECT_ROOT })
  child.stderr?.resume()
  const line = await firstLine(child)
  child.stdout?.resume()
  return { line, child, stop: () => stopChild(child) }
}

async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! })
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`child ${child.spawnargs.slice(1).join(' ')} exited with ${String(code)} before it was ready`)
  })
  try {
    return await Promise.race([once(lines, 'line').then(([line]) => line as string), exited])
  } finally {
    lines.close()
    exited.catch(() => undefined)
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

export interface TimedProcess {
  readonly wallMs: number
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
  /** The child's own peak RSS (MB) and CPU time (ms), when asked for with `usage`. */
  readonly usage?: { readonly peakRssMb: number; readonly cpuMs: number }
}

/**
 * Runs `node <args>` to the end and times it from spawn to exit, as a shell would. With `usage`, a
 * preloaded module reports the child's own peak memory and CPU time (getrusage).
 */
export async function runNode(
  args: readonly string[],
  options: { usage?: boolean; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<TimedProcess> {
  const usageDir = options.usage ? mkdtempSync(join(tmpdir(), 'fitconform-bench-usage-')) : undefined
  const usageFile = usageDir ? join(usageDir, 'usage.json') : undefined
  const preload = usageFile ? ['--import', new URL('./report-resource-usage.js', import.meta.url).href] : []
  const env = {
    ...process.env,
    ...options.env,
    ...(usageFile ? { FITCONFORM_BENCH_USAGE_FILE: usageFile } : {}),
    NO_COLOR: '1',
  }
  const started = performance.now()
  const child = spawn(process.execPath, [...preload, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    cwd: PROJECT_ROOT,
  })
  const stdout: Buffer[] = []
  const stderr: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000)
  const [exitCode] = (await once(child, 'exit')) as [number | null]
  const wallMs = performance.now() - started
  clearTimeout(timer)
  let usage: TimedProcess['usage']
  if (usageDir && usageFile) {
    try {
      const reported = JSON.parse(readFileSync(usageFile, 'utf8')) as { maxRssKb: number; cpuMs: number }
      usage = { peakRssMb: reported.maxRssKb / 1024, cpuMs: reported.cpuMs }
    } catch {
      usage = undefined
    }
    rmSync(usageDir, { recursive: true, force: true })
  }
  return {
    wallMs,
    exitCode,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
    usage,
  }
}

/** A fresh temporary folder, removed by the returned function. */
export function temporaryFolder(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `fitconform-bench-${prefix}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
