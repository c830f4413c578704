/**
 * Records every HTTP request a suite run sends, in order, with the deliberate waits between them, so
 * that replay-requests-process.ts can send the very same requests with nothing else around them.
 *
 * How: the run goes through the library (`runConformance`) at concurrency 1, so every request between
 * a scenario's start and end events belongs to that scenario. Requests are seen on diagnostics
 * channels, not by wrapping our code: `undici:request:create` for the keep-alive client and
 * `net.client.socket` for the raw-socket probes (HEAD, `noBody`), whose bytes are kept as written.
 * Waits come from the scenario model: a step's `wait` goes before the step's first request, and each
 * extra `eventually` attempt adds its `every`, each `untilServerDateAfter` resend its 50 ms. Cleanup steps report no
 * events, so a wait in one could
 * not be placed: the capture refuses such a suite rather than replay it without the wait.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import type { Socket } from 'node:net'
import { loadSuites } from '../../src/load/load-suites.js'
import type { Scenario, Step } from '../../src/model/scenario.js'
import type { StepResult } from '../../src/model/result.js'
import type { Reporter, ScenarioView } from '../../src/model/reporter.js'
import { runConformance } from '../../src/execute/run-conformance.js'
import { CLOCK_RESEND_EVERY_MS } from '../../src/execute/step/server-clock-wait.js'
import { answeredIn, type CapturedItem, type CapturedRun, type CapturedScenario } from './captured-run.js'
import type { ServerProcess } from './processes.js'

export async function captureSuiteRequests(server: ServerProcess, suitePaths: readonly string[]): Promise<CapturedRun> {
  const loaded = await loadSuites(suitePaths)
  if (loaded.diagnostics.length > 0) throw new Error(`the suite does not load: ${loaded.diagnostics[0]!.message}`)
  const waitingCleanup = loaded.scenarios.find((scenario) => scenario.cleanup.some((step) => step.waitMs))
  if (waitingCleanup)
    throw new Error(`scenario ${waitingCleanup.id} waits in a cleanup step: the capture cannot place that wait`)
  const byId = new Map(loaded.scenarios.map((scenario) => [scenario.id, scenario]))
  const recorder = createRecorder()
  const run: CapturedRun = { probe: [], exclusive: [], concurrent: [], final: [] }
  let current: CapturedItem[] = run.probe
  let scenario: Scenario | undefined
  let stepIndex = 0
  let stepStart = 0

  const reporter: Reporter = {
    onScenarioStart(view: ScenarioView) {
      scenario = byId.get(view.id)!
      const captured: CapturedScenario = { id: view.id, items: [] }
      ;(scenario.exclusive ? run.exclusive : run.concurrent).push(captured)
      current = captured.items
      stepIndex = 0
      stepStart = 0
    },
    onStepEnd(result: StepResult) {
      const step: Step | undefined = scenario?.steps[stepIndex++]
      if (step?.waitMs) current.splice(stepStart, 0, { kind: 'wait', ms: step.waitMs, why: 'wait' })
      if (step?.eventually && result.attempts > 1) {
        // Where exactly each poll's sleep fell among the step's requests does not change the total.
        const polls = Array.from({ length: result.attempts - 1 }, () => ({
          kind: 'wait' as const,
          ms: step.eventually!.everyMs,
          why: 'eventually' as const,
        }))
        current.splice(Math.max(stepStart, current.length - 1), 0, ...polls)
      }
      if (result.clockResends) {
        // untilServerDateAfter slept between its resends (the reference server always sends Date).
        const sleeps = Array.from({ length: result.clockResends }, () => ({
          kind: 'wait' as const,
          ms: CLOCK_RESEND_EVERY_MS,
          why: 'clock' as const,
        }))
        current.splice(Math.max(stepStart, current.length - 1), 0, ...sleeps)
      }
      stepStart = current.length
    },
    onScenarioEnd() {
      current = run.final
      scenario = undefined
    },
  }

  recorder.start((item) => current.push(item))
  try {
    const outcome = await runConformance(
      loaded.scenarios,
      loaded.rules,
      {
        target: { baseUrl: new URL(server.url), tokens: tokensByRole(server), label: 'capture' },
        filter: { readOnly: false },
        strict: false,
        concurrency: 1,
        timeoutMs: 10_000,
        bail: false,
        insecure: false,
        configValues: {},
      },
      reporter,
    )
    if (outcome.kind !== 'ran') throw new Error(`the capture run could not reach ${server.url}`)
    if (outcome.result.summary.failed > 0)
      throw new Error(
        `${outcome.result.summary.failed} scenario(s) failed in the capture run: the replay would not be the same work`,
      )
  } finally {
    recorder.stop()
  }
  return run
}

function tokensByRole(
  server: ServerProcess,
): Record<'token' | 'other-token' | 'revoked-token' | 'revoked-delete-token' | 'limited-token', string> {
  const { tokens } = server
  return {
    token: tokens.token,
    'other-token': tokens.otherToken,
    'revoked-token': tokens.revokedToken,
    'revoked-delete-token': tokens.revokedDeleteToken,
    'limited-token': tokens.limitedToken,
  }
}

interface UndiciRequest {
  method: string
  path: string
  headers: string[] | string
  body: unknown
}

/** Subscribes to the channels; `stop` unsubscribes. */
function createRecorder(): { start: (push: (item: CapturedItem) => void) => void; stop: () => void } {
  const undiciSockets = new WeakSet<Socket>()
  const byRequest = new WeakMap<object, Extract<CapturedItem, { kind: 'http' }>>()
  let push: (item: CapturedItem) => void = () => undefined

  const onCreate = (message: unknown): void => {
    const request = (message as { request: UndiciRequest }).request
    const headers = Array.isArray(request.headers) ? request.headers : splitHeaderText(request.headers)
    const body =
      typeof request.body === 'string'
        ? request.body
        : Buffer.isBuffer(request.body)
          ? request.body.toString('utf8')
          : undefined
    const item = {
      kind: 'http' as const,
      method: request.method,
      path: request.path,
      headers,
      ...(body !== undefined ? { body } : {}),
    }
    byRequest.set(request, item)
    push(item)
  }
  const onHeaders = (message: unknown): void => {
    const { request, response } = message as { request: object; response: { statusCode: number; headers: Buffer[] } }
    const item = byRequest.get(request)
    if (!item) return
    item.status = response.statusCode
    const lines: string[] = []
    for (let i = 0; i < response.headers.length; i += 2)
      lines.push(`${response.headers[i]!.toString('latin1')}: ${response.headers[i + 1]!.toString('latin1')}`)
    item.answered = answeredIn(lines)
  }
  const onConnected = (message: unknown): void => {
    undiciSockets.add((message as { socket: Socket }).socket)
  }
  const onSocket = (message: unknown): void => {
    const socket = (message as { socket: Socket }).socket
    // net's connect() puts the prototype's write back, so the wrapper goes on at 'connect'; this
    // listener is the socket's first, so it runs before the raw client's own write.
    socket.once('connect', () => {
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean
      let item: Extract<CapturedItem, { kind: 'wire' }> | undefined
      socket.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (!undiciSockets.has(socket)) {
          const text = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk)
          if (item) item.bytes += text
          else {
            const wire: Extract<CapturedItem, { kind: 'wire' }> = { kind: 'wire', bytes: text }
            item = wire
            push(wire)
            socket.once('data', (data: Buffer) => {
              const [statusLine = '', ...lines] = data.toString('latin1').split('\r\n\r\n')[0]!.split('\r\n')
              wire.status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
              wire.answered = answeredIn(lines)
            })
          }
        }
        return write(chunk, ...rest)
      }) as typeof socket.write
    })
  }

  const subscriptions: [string, (message: unknown) => void][] = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onHeaders],
    ['undici:client:connected', onConnected],
    ['net.client.socket', onSocket],
  ]
  return {
    start(target) {
      push = target
      for (const [name, listener] of subscriptions) diagnosticsChannel.subscribe(name, listener)
    },
    stop() {
      for (const [name, listener] of subscriptions) diagnosticsChannel.unsubscribe(name, listener)
      push = () => undefined
    },
  }
}

function splitHeaderText(text: string): string[] {
  return text
    .split('\r\n')
    .filter(Boolean)
    .flatMap((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon), line.slice(colon + 1).trim()]
    })
}
