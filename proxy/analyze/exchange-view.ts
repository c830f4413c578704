/**
 * What an analyzer rule sees of an exchange: plain data, headers lower-cased, bodies decoded and
 * parsed once. Rules are pure functions of this view, so their tests are tables of hand-written views.
 */
import type { Finding } from '../../src/model/exchange.js'
import type { Endpoint } from '../../src/spec/endpoints.js'
import { TextMemo } from './text-memo.js'

export interface BodyView {
  /** Bytes on the wire (after transfer coding, before content coding is undone); 0: no body. */
  readonly size: number
  /** Decoded UTF-8 text, when the body is text. */
  readonly text?: string
  /** The parsed JSON value; `undefined` when the text is not JSON (see `jsonError`). */
  readonly json?: unknown
  readonly jsonError?: string
  /** Only the first bytes were kept (`--max-body-bytes`): the body cannot be checked whole. */
  readonly truncated: boolean
}

export interface MessageView {
  /** Lower-case name → values in order. */
  readonly headers: ReadonlyMap<string, readonly string[]>
  readonly body: BodyView
}

export interface ResponseView extends MessageView {
  readonly status: number
}

export interface ExchangeView {
  readonly method: string
  /** Path relative to {base_url} (§1 rule 5), without the query. */
  readonly path: string
  readonly query: readonly (readonly [string, string])[]
  readonly endpoint?: Endpoint
  readonly request: MessageView
  /** Absent when no upstream response arrived (failed exchange). */
  readonly response?: ResponseView
  /**
   * When the exchange began and ended at the proxy (a monotonic clock, ms): tells exchanges that ran
   * one after the other from ones that overlapped. Absent in hand-written views.
   */
  readonly clock?: { readonly start: number; readonly end: number }
}

/** One analyzer rule: Ajv's keyword shape (STYLE §2.12). */
export interface CheckDefinition {
  readonly name: string
  readonly description: string
  check(view: ExchangeView): Finding[]
}

/** The first value of a header, if present. */
export function headerOf(message: MessageView, name: string): string | undefined {
  return message.headers.get(name)?.[0]
}

export const NO_BODY: BodyView = { size: 0, truncated: false }

/**
 * A body view from its text. The JSON is parsed on first use: a body whose findings are already known
 * from its text (rules/response-body.ts) and that names no credential field is never parsed. A text
 * parsed before (a page read again) gives the value parsed then: rules and relations only read it.
 */
export function bodyFromText(text: string, options: { size?: number; truncated?: boolean } = {}): BodyView {
  const size = options.size ?? Buffer.byteLength(text)
  const truncated = options.truncated ?? false
  let parsed: { readonly json?: unknown; readonly jsonError?: string } | undefined
  const parse = (): { readonly json?: unknown; readonly jsonError?: string } =>
    (parsed ??= parsedTexts.get('', text, () => parseJson(text)))
  return {
    size,
    text,
    truncated,
    get json() {
      return parse().json
    },
    get jsonError() {
      return parse().jsonError
    },
  }
}

/** Bounded as every text memo is (text-memo.ts). */
const parsedTexts = new TextMemo<{ readonly json?: unknown; readonly jsonError?: string }>()

function parseJson(text: string): { readonly json?: unknown; readonly jsonError?: string } {
  if (text.trim() === '') return { jsonError: 'empty body' }
  try {
    return { json: JSON.parse(text) as unknown }
  } catch (err) {
    return { jsonError: (err as Error).message }
  }
}
