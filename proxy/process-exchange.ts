/**
 * What happens to one exchange once the client has its response: decode, analyze, redact, then hand
 * the entry to the log and the live lines to `print`. Runs on the recording thread (pipeline-worker.ts).
 */
import type { EndpointRef, ExchangeEntry, Finding, FindingKind } from '../src/model/exchange.js'
import { analyzeExchange } from './analyze/index.js'
import { matchEndpoint } from './analyze/endpoints.js'
import { bodyFromText, NO_BODY, type BodyView, type ExchangeView } from './analyze/exchange-view.js'
import { applyStrict } from './analyze/findings.js'
import { decodeBody, type DecodedBody } from './body-decoding.js'
import type { ExchangeLog } from './exchange-log.js'
import { toExchangeEntry } from './har-entry.js'
import type { CapturedExchange } from './recorder.js'
import type { Redactor } from './redaction.js'
import { apiPathOf } from './target.js'
import { headerMap, rawHeaderValues } from '../src/shared/headers.js'

export interface ProcessOptions {
  readonly target: URL
  readonly redactor: Redactor
  readonly log?: ExchangeLog
  readonly strict: boolean
  readonly maxBodyBytes: number
  /** One line of live output (no newline); already redacted. */
  readonly print: (line: string) => void
  /** Print only the finding lines, not one line per exchange (`--quiet`): that line is then not even built. */
  readonly quiet: boolean
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
  return { exchanges: 0, failed: 0, unrecorded: 0, findings: { violation: 0, irregularity: 0, note: 0, 'unknown-endpoint': 0 } }
}

/**
 * Processes one exchange; a bug of ours becomes one problem line (naming no header or body) and an
 * exchange counted as not recorded, never a throw.
 */
export async function processExchange(exchange: CapturedExchange, options: ProcessOptions, stats: PipelineStats): Promise<void> {
  stats.exchanges += 1
  if (exchange.error !== undefined) stats.failed += 1
  let entry: ExchangeEntry
  try {
    entry = await toEntry(exchange, options)
    options.log?.append(entry)
  } catch (err) {
    if (options.log !== undefined) stats.unrecorded += 1
    options.printProblem(`error: #${exchange.id} internal error while recording: ${(err as Error).name}: ${options.redactor.scrub((err as Error).message)}`)
    return
  }
  for (const f of entry._findings) stats.findings[f.kind] += 1
  if (!options.quiet) printExchangeLine(exchange, entry, options)
  for (const f of entry._findings) options.print(formatFinding(f))
}

/** `#12 GET /fitnessActivities 200 3.1 ms` */
function printExchangeLine(exchange: CapturedExchange, entry: ExchangeEntry, options: ProcessOptions): void {
  const status = exchange.generated?.status ?? exchange.response?.status
  const outcome = exchange.error === undefined ? `${status ?? '-'}` : `failed (${exchange.error.code}: ${exchange.error.message})${status === undefined ? '' : ` → ${status}`}`
  options.print(options.redactor.scrub(`#${exchange.id} ${exchange.method} ${apiPathOf(options.target, exchange.upstreamPath)} ${outcome} ${entry.time.toFixed(1)} ms`))
}

/** Decodes, analyzes and redacts: the recording line's entry. */
async function toEntry(exchange: CapturedExchange, options: ProcessOptions): Promise<ExchangeEntry> {
  const { target, redactor } = options
  const requestBody = await decodeBody(exchange.requestBody, rawHeaderValues(exchange.requestHeaders, 'content-encoding')[0], options.maxBodyBytes)
  const response = exchange.generated === undefined ? exchange.response : undefined
  const responseBody = response === undefined ? undefined : await decodeBody(response.body, rawHeaderValues(response.rawHeaders, 'content-encoding')[0], options.maxBodyBytes)

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
        : { status: response.status, headers: headerMap(response.rawHeaders), body: bodyView(response.body.size, responseBody) },
  }
  const analyzed = analyzeExchange(view)
  const findings = options.strict ? applyStrict(analyzed) : analyzed

  const upstreamUrl = new URL(`${target.origin}${exchange.upstreamPath}`)
  const tokenId = redactor.learn(pairs(exchange.requestHeaders), upstreamUrl)
  if (response !== undefined) redactor.learn(pairs(response.rawHeaders))
  redactor.learnFromBodyView(view.request.body)
  if (view.response !== undefined) redactor.learnFromBodyView(view.response.body)
  const endpointRef: EndpointRef | undefined = endpoint === undefined ? undefined : { method: endpoint.method, path: endpoint.path, row: endpoint.row }
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
      responseRepresentation: response?.status === 403 ? 'ErrorMessage' : endpoint?.responseBody,
    },
    redactor,
  )
}

/** `  violation ACTIVITY-HAS-MAP-TEXT /has_map: …` */
function formatFinding(f: Finding): string {
  const where = f.pointer === undefined ? '' : ` ${f.pointer === '' ? '/' : f.pointer}`
  return `    ${f.kind} ${f.rule ?? '-'}${where}: ${f.message}`
}

function bodyView(size: number, decoded: DecodedBody): BodyView {
  if (size === 0) return NO_BODY
  if (decoded.text === undefined) return { size, truncated: decoded.truncated, jsonError: decoded.decodeError ?? 'binary body' }
  return bodyFromText(decoded.text, { size, truncated: decoded.truncated })
}

function pairs(rawHeaders: readonly string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) out.push([rawHeaders[i] as string, rawHeaders[i + 1] as string])
  return out
}
