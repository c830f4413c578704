/**
 * What the proxy benchmarks share: child processes that print their URL, the load generator
 * (autocannon, exact response times), CPU time from /proc, and counting a recording's lines, so that
 * a peer (mitmdump, another proxy) can be driven exactly like fitconform's proxy in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'

const require = createRequire(import.meta.url)

export interface Load {
  readonly requestsPerSecond: number
  /** Seconds the load ran (autocannon's own measure). */
  readonly seconds: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly completed: number
  readonly errors: number
}

export interface LoadOptions {
  readonly url: string
  readonly connections: number
  readonly durationSeconds: number
  /** Requests per second over all connections; as fast as possible without it. */
  readonly rate?: number
  readonly headers?: Readonly<Record<string, string>>
  /** autocannon's `requests` (each with a `setupRequest`), for traffic in which requests differ. */
  readonly requests?: readonly unknown[]
}

/** autocannon with keep-alive connections, one request at a time each (no pipelining). */
export async function load(options: LoadOptions): Promise<Load> {
  const autocannon = require('autocannon') // 9.x ships no types
  const times: number[] = []
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
    headers: options.headers ?? {},
    ...(options.requests === undefined ? {} : { requests: options.requests }),
  })
  // The histogram keeps whole milliseconds; the event gives the exact time of each response.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
    times.push(responseTime),
  )
  const result = await instance
  times.sort((a, b) => a - b)
  return {
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    seconds: result.duration,
    p50Ms: round(times[Math.floor(times.length * 0.5)] ?? NaN),
    p99Ms: round(times[Math.floor(times.length * 0.99)] ?? NaN),
    completed: result.requests.total,
    // A 304 answers a conditional read (realistic traffic): only 4xx and 5xx are errors.
    errors: result.errors + result.timeouts + result['4xx'] + result['5xx'],
  }
}

/** CPU time (user + system) of a process, or of one of its threads, in microseconds, from /proc (Linux). */
export function cpuMicros(pid: number, tid?: number): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
  // Fields after the command name (in parentheses): utime and stime are the 12th and 13th, in clock ticks (100 Hz).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/** Counts the newlines of a growing file, reading only what was added since the last call. */
export function createLineCounter(file: string): () => number {
  let offset = 0
  let lines = 0
  const chunk = Buffer.allocUnsafe(1024 * 1024)
  return () => {
    let fd: number
    try {
      fd = openSync(file, 'r')
    } catch {
      return lines // not created yet
    }
    try {
      for (
        let read = readSync(fd, chunk, 0, chunk.length, offset);
        read > 0;
        read = readSync(fd, chunk, 0, chunk.length, offset)
      ) {
        offset += read
        for (let at = chunk.indexOf(10, 0); at !== -1 && at < read; at = chunk.indexOf(10, at + 1)) lines += 1
      }
    } finally {
      closeSync(fd)
    }
    return lines
  }
}

/** Resolves once `count()` reaches `target` (polled every 5 ms); rejects after `limitMs`. */
export async function waitForCount(count: () => number, target: number, limitMs: number): Promise<void> {
  const started = performance.now()
  while (count() < target) {
    if (performance.now() - started > limitMs) throw new Error(`only ${count()} of ${target} lines after ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export interface Child {
  readonly url: string
  readonly pid: number
  stop(): Promise<void>
}

/** A child process that prints a line with its URL once it listens; stopped with SIGTERM. */
export async function startChild(command: string, args: readonly string[]): Promise<Child> {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] })
  const lines = createInterface({ input: child.stdout! })
  const exited = once(child, 'exit').then(([code]) =>
    Promise.reject(new Error(`${args.join(' ')} exited (${String(code)}) before it listened`)),
  )
  exited.catch(() => {}) // only the race below reports it
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string]
  const url = /(https?:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1]
  if (url === undefined) throw new Error(`no URL in the first line of ${args.join(' ')}: ${line}`)
  let stopped: Promise<void> | undefined
  return {
    url,
    pid: child.pid as number,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode !== null) return
        const gone = once(child, 'exit')
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
        await gone
        clearTimeout(timer)
      })()
      return stopped
    },
  }
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
