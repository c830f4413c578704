/**
 * What happens to one exchange once the client has its response: decode, analyze, redact, then hand
 * its line to the log and the live lines to `print`. Runs on the recording thread (pipeline-worker.ts).
 */
import type { EndpointRef, ExchangeEntry, Finding, FindingKind } from '../../src/model/exchange.js'
import { analyzeExchange } from '../analyze/index.js'
import { matchEndpoint } from '../../src/spec/endpoints.js'
import { bodyFromText, NO_BODY, type BodyView, type ExchangeView } from '../analyze/exchange-view.js'
import { applyStrict } from '../analyze/findings.js'
import type { ObservedRelations } from '../analyze/relations/observed-relations.js'
import { responseRepresentationOf } from '../analyze/rules/response-body.js'
import { decodeBody, type DecodedBody } from './body-decoding.js'
import type { ExchangeLog } from './exchange-log.js'
import type { RecordClock } from './exchange-ring.js'
import { clockMembers, toExchangeEntry } from '../reading/har-entry.js'
import type { CapturedExchange } from './recorder.js'
import { joinLine, lineParts, type LineParts } from './recording-line.js'
import type { SecretScrubber } from './redaction.js'
import { internalErrorText } from './recording-problems.js'
import type { RecordingSettings } from '../forward/proxy-settings.js'
import { apiPathOf } from '../forward/target.js'
import { headerMap, rawHeaderValues } from '../../src/shared/headers.js'

/**
 * The recording settings it reads (`strict`, `maxBodyBytes`, `quiet`: with `quiet`, the line per exchange
 * is not even built), and what the recording thread holds.
 */
export interface ProcessOptions extends Pick<RecordingSettings, 'strict' | 'maxBodyBytes' | 'quiet'> {
  readonly target: URL
  readonly redactor: SecretScrubber
  readonly log?: ExchangeLog
  /** The session's memory for judging an exchange against earlier ones (analyze/relations/). */
  readonly relations?: ObservedRelations
  /** One line of live output (no newline); already redacted. */
  readonly print: (line: string) => void
  /** A line about recording itself going wrong: shown even with `--quiet`. */
  readonly printProblem: (line: string) => void
}

export interface PipelineStats {
  /** Exchanges that went through the proxy (forwarded, or failed on the way). */
  exchanges: number
  /** Of those, the ones that failed (upstream unreachable, too slow, cut; client gone). */
  failed: number
  /** Of those, the ones missing from the recording (a write error, or a bug of ours while recording). */
  unrecorded: number
  findings: Record<FindingKind, number>
}

export function emptyStats(): PipelineStats {
  return {
    exchanges: 0,
    failed: 0,
    unrecorded: 0,
    findings: { violation: 0, irregularity: 0, note: 0, 'unknown-endpoint': 0 },
  }
}

/**
 * What an exchange leaves to be recorded, counted and printed (`record`), and, when it completed
 * normally, to record the same exchange made again (`processAgain`): its findings and the parts of its
 * line, as recording-line.ts makes them with the secrets of `generation`.
 */
export interface RecordingTemplate {
  readonly generation: number
  readonly method: string
  readonly apiPath: string
  readonly status: number | undefined
  readonly error?: CapturedExchange['error']
  /** As written in the line: scrubbed. */
  readonly findings: readonly Finding[]
  /** Set when there is a recording. */
  readonly parts?: LineParts
}

/**
 * Processes one exchange; a bug of ours becomes one problem line (naming no header or body) and an
 * exchange counted as not recorded, never a throw. Returns what `processAgain` needs to record the
 * same exchange made again, when it completed normally.
 */
export async function processExchange(
  exchange: CapturedExchange,
  options: ProcessOptions,
  stats: PipelineStats,
): Promise<RecordingTemplate | undefined> {
  if (exchange.error !== undefined) stats.failed += 1
  const { log, redactor } = options
  let template: RecordingTemplate
  try {
    const entry = await toEntry(exchange, options)
    template = {
      generation: redactor.generation,
      method: exchange.method,
      apiPath: apiPathOf(options.target, exchange.upstreamPath),
      status: exchange.generated?.status ?? exchange.response?.status,
      error: exchange.error,
      findings: entry._findings,
      parts: log === undefined ? undefined : lineParts(entry, redactor),
    }
  } catch (err) {
    stats.exchanges += 1
    recordingFailed(exchange.id, err, options, stats)
    return undefined
  }
  record(template, exchange, options, stats)
  const completed = exchange.error === undefined && exchange.generated === undefined && template.status !== undefined
  return completed ? template : undefined
}

/**
 * Records an exchange equal to one processed before (exchange-ring.ts `recordIdentity`) while no
 * secret was learnt since: the same findings, the same line but for its id and clock. Decoding,
 * validating and redacting it again would give the same (they are functions of the exchange and of
 * the secrets known), so only what differs is computed, by the same `record` as a new exchange.
 */
export function processAgain(
  known: RecordingTemplate,
  clock: RecordClock,
  options: ProcessOptions,
  stats: PipelineStats,
): void {
  record(known, clock, options, stats)
}

/** Writes the exchange's line, counts it and prints it with its findings: the one way every exchange is recorded. */
function record(template: RecordingTemplate, clock: RecordClock, options: ProcessOptions, stats: PipelineStats): void {
  stats.exchanges += 1
  const { log, redactor } = options
  try {
    if (log !== undefined && template.parts !== undefined)
      log.append(joinLine(template.parts, clock.id, clock, redactor))
  } catch (err) {
    recordingFailed(clock.id, err, options, stats)
    return
  }
  noteFindings(template.findings, stats)
  if (!options.quiet)
    printExchangeLine(
      {
        id: clock.id,
        method: template.method,
        apiPath: template.apiPath,
        status: template.status,
        error: template.error,
        time: clockMembers(clock).time,
      },
      options,
    )
  printFindings(template.findings, options)
}

function recordingFailed(id: number, err: unknown, options: ProcessOptions, stats: PipelineStats): void {
  if (options.log !== undefined) stats.unrecorded += 1
  options.printProblem(internalErrorText(id, err, options.redactor))
}

function noteFindings(findings: readonly Finding[], stats: PipelineStats): void {
  for (const f of findings) stats.findings[f.kind] += 1
}

function printFindings(findings: readonly Finding[], options: ProcessOptions): void {
  for (const f of findings) options.print(formatFinding(f))
}

/** `#12 GET /fitnessActivities 200 3.1 ms` */
function printExchangeLine(
  line: {
    id: number
    method: string
    apiPath: string
    status: number | undefined
    error?: CapturedExchange['error']
    time: number
  },
  options: ProcessOptions,
): void {
  const { status, error } = line
  const outcome =
    error === undefined
      ? `${status ?? '-'}`
      : `failed (${error.code}: ${error.message})${status === undefined ? '' : ` → ${status}`}`
  // Scrubbed whole, then cut: a secret cut in half would no longer be recognised.
  const target = cutForConsole(options.redactor.scrub(line.apiPath))
  options.print(options.redactor.scrub(`#${line.id} ${line.method} ${target} ${outcome} ${line.time.toFixed(1)} ms`))
}

/**
 * Request-targets (and finding messages, which may quote the path) longer than these are cut on the
 * console (an 8 KiB request-target filled every line); the recording keeps them whole.
 */
const CONSOLE_TARGET_CHARS = 200
const CONSOLE_MESSAGE_CHARS = 500

/** `/fitnessActivities?x=aaaa… (8,203 characters)`: a long text cut to its first `limit` characters. */
function cutForConsole(text: string, limit = CONSOLE_TARGET_CHARS): string {
  if (text.length <= limit) return text
  return `${text.slice(0, limit)}… (${text.length.toLocaleString('en-US')} characters)`
}

/** Decodes, analyzes and redacts: the recording line's entry. */
async function toEntry(exchange: CapturedExchange, options: ProcessOptions): Promise<ExchangeEntry> {
  const { target, redactor } = options
  const requestBody = await decodeBody(
    exchange.requestBody,
    rawHeaderValues(exchange.requestHeaders, 'content-encoding')[0],
    options.maxBodyBytes,
  )
  const response = exchange.generated === undefined ? exchange.response : undefined
  const responseBody =
    response === undefined
      ? undefined
      : await decodeBody(
          response.body,
          rawHeaderValues(response.rawHeaders, 'content-encoding')[0],
          options.maxBodyBytes,
        )

  const apiPath = apiPathOf(target, exchange.upstreamPath)
  // Concatenated, not resolved: a path such as //host/x must stay a path.
  const url = new URL(`http://x${apiPath}`)
  const endpoint = matchEndpoint(exchange.method, url.pathname)
  const view: ExchangeView = {
    method: exchange.method,
    path: url.pathname,
    query: [...url.searchParams],
    endpoint,
    request: { headers: headerMap(exchange.requestHeaders), body: bodyView(exchange.requestBody.size, requestBody) },
    // A failed exchange's response (if any) is cut short: only the request is judged.
    response:
      response === undefined || responseBody === undefined || exchange.error !== undefined
        ? undefined
        : {
            status: response.status,
            headers: headerMap(response.rawHeaders),
            body: bodyView(response.body.size, responseBody),
          },
    clock: { start: exchange.times.start, end: exchange.times.end },
  }
  const analyzed = analyzeExchange(view, options.relations)
  const findings = options.strict ? applyStrict(analyzed) : analyzed

  const upstreamUrl = new URL(`${target.origin}${exchange.upstreamPath}`)
  const tokenId = redactor.learn(pairs(exchange.requestHeaders), upstreamUrl)
  if (response !== undefined) redactor.learn(pairs(response.rawHeaders))
  redactor.learnFromBodyView(view.request.body)
  if (view.response !== undefined) redactor.learnFromBodyView(view.response.body)
  const endpointRef: EndpointRef | undefined =
    endpoint === undefined ? undefined : { method: endpoint.method, path: endpoint.path, row: endpoint.row }
  return toExchangeEntry(
    {
      exchange,
      url: upstreamUrl,
      requestBody,
      responseBody,
      endpoint: endpointRef,
      findings,
      tokenId,
      requestRepresentation: endpoint?.requestBody,
      // The representation the body was validated as, so that a Profile on any route gets --redact-personal.
      responseRepresentation:
        view.response === undefined
          ? response?.status === 403
            ? 'ErrorMessage'
            : endpoint?.responseBody
          : responseRepresentationOf(view),
    },
    redactor,
  )
}

/** `  violation ACTIVITY-HAS-MAP-TEXT /has_map: …` */
function formatFinding(f: Finding): string {
  const where = f.pointer === undefined ? '' : ` ${f.pointer === '' ? '/' : f.pointer}`
  return `    ${f.kind} ${f.rule ?? '-'}${where}: ${cutForConsole(f.message, CONSOLE_MESSAGE_CHARS)}`
}

function bodyView(size: number, decoded: DecodedBody): BodyView {
  if (size === 0) return NO_BODY
  if (decoded.text === undefined)
    return { size, truncated: decoded.truncated, jsonError: decoded.decodeError ?? 'binary body' }
  return bodyFromText(decoded.text, { size, truncated: decoded.truncated })
}

function pairs(rawHeaders: readonly string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) out.push([rawHeaders[i] as string, rawHeaders[i + 1] as string])
  return out
}
