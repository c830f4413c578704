/**
 * Child-process entry: sends the requests of a captured suite run (support/request-capture.ts) again,
 * with undici and nothing else: no YAML, no templates, no checks, no reports. It keeps what shapes the
 * run's wall time: the same order, the same deliberate waits, exclusive scenarios one at a time and
 * then the others `--concurrency` at a time, raw sockets for the requests the runner sends raw, and
 * bodies read to the end. Created resources get new ids and conditional requests need this run's
 * validators, so each Location, Last-Modified and ETag answered is mapped from the captured value into
 * later requests (a string replacement, not parsing).
 *
 *   node dist/bench/replay-requests-process.js --capture FILE --base-url URL [--concurrency 4] [--verbose]
 *
 * Prints one JSON line: requests sent, how many answered another status than in the capture, waits.
 */
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { Agent, request, type Dispatcher } from 'undici'
import {
  ANSWERED_HEADERS,
  answeredIn,
  type Answered,
  type CapturedItem,
  type CapturedRun,
  type CapturedScenario,
} from './support/captured-run.js'

/** The runner's raw-socket client waits this long after the last byte for a server that keeps the socket open. */
const WIRE_IDLE_MS = 300

const { values } = parseArgs({
  options: {
    capture: { type: 'string' },
    'base-url': { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    verbose: { type: 'boolean', default: false },
  },
})
const run = JSON.parse(readFileSync(values.capture!, 'utf8')) as CapturedRun
const base = new URL(values['base-url']!)
const dispatcher = new Agent({ keepAliveTimeout: 10_000, headersTimeout: 10_000, bodyTimeout: 10_000 })
const idMap = new Map<string, string>()
let idPattern: RegExp | undefined
const tally = { requests: 0, statusMismatches: 0, waitedMs: 0 }

await replayItems(run.probe)
for (const scenario of run.exclusive) await replayItems(scenario.items)
const queue: CapturedScenario[] = [...run.concurrent]
const workers = Array.from({ length: Math.max(1, Math.min(Number(values.concurrency), queue.length)) }, async () => {
  for (let next = queue.shift(); next; next = queue.shift()) await replayItems(next.items)
})
await Promise.all(workers)
await replayItems(run.final)
await dispatcher.close()
process.stdout.write(JSON.stringify(tally) + '\n')

async function replayItems(items: readonly CapturedItem[]): Promise<void> {
  for (const item of items) {
    if (item.kind === 'wait') {
      tally.waitedMs += item.ms
      await sleep(item.ms)
      continue
    }
    tally.requests++
    const { status, answered } = item.kind === 'http' ? await sendHttp(item) : await sendWire(mapIds(item.bytes))
    learn(item.answered, answered)
    if (item.status !== undefined && status !== item.status) {
      tally.statusMismatches++
      if (values.verbose)
        process.stderr.write(
          `${item.status} → ${status}: ${item.kind === 'http' ? `${item.method} ${item.path}` : item.bytes.split('\r\n')[0]}\n`,
        )
    }
  }
}

interface Answer {
  readonly status: number
  readonly answered: Answered
}

async function sendHttp(item: Extract<CapturedItem, { kind: 'http' }>): Promise<Answer> {
  const response = await request(new URL(mapIds(item.path), base), {
    method: item.method as Dispatcher.HttpMethod,
    headers: item.headers.map(mapIds),
    ...(item.body !== undefined ? { body: mapIds(item.body) } : {}),
    dispatcher,
  })
  await response.body.arrayBuffer()
  const answered: Answered = {}
  for (const name of ANSWERED_HEADERS) {
    const value = response.headers[name]
    if (typeof value === 'string') answered[name] = value
  }
  return { status: response.statusCode, answered }
}

/** The captured bytes on a fresh socket; read until the server closes, as the runner's raw client does. */
function sendWire(bytes: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: base.hostname, port: Number(base.port || 80) })
    const chunks: Buffer[] = []
    let idle: NodeJS.Timeout | undefined
    const finish = (): void => {
      clearTimeout(idle)
      socket.destroy()
      const [statusLine = '', ...lines] = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!.split('\r\n')
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), answered: answeredIn(lines) })
    }
    socket.setNoDelay(true)
    socket.on('connect', () => socket.write(Buffer.from(bytes, 'latin1')))
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      clearTimeout(idle)
      if (Buffer.concat(chunks).includes('\r\n\r\n')) idle = setTimeout(finish, WIRE_IDLE_MS)
    })
    socket.on('close', finish)
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)))
  })
}

function pathOf(location: string): string {
  return location.startsWith('/') ? location : new URL(location).pathname
}

/** What the capture was answered → what this replay was answered, for the requests that follow. */
function learn(captured: Answered | undefined, replayed: Answered): void {
  for (const name of ANSWERED_HEADERS) {
    const from = captured?.[name]
    const to = replayed[name]
    if (from === undefined || to === undefined) continue
    if (name === 'location') remember(pathOf(from), pathOf(to))
    else remember(from, to)
  }
}

function remember(from: string, to: string): void {
  if (from === to || idMap.get(from) === to) return
  idMap.set(from, to)
  idPattern = undefined
}

/** Captured values → this replay's; a following word character blocks a match (id 1001 is not in 10012). */
function mapIds(text: string): string {
  if (idMap.size === 0) return text
  // One pattern for all known ids, rebuilt only when a new id is learnt.
  idPattern ??= new RegExp(`(?:${[...idMap.keys()].map(escape).join('|')})(?![\\w-])`, 'g')
  return text.replace(idPattern, (from) => idMap.get(from) ?? from)
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
