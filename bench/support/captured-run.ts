/**
 * The data a capture (request-capture.ts) hands to the replay (../replay-requests-process.ts): kept
 * apart so that the replay process loads none of the runner's modules.
 */

export type CapturedItem =
  | {
      readonly kind: 'http'
      readonly method: string
      /** Path and query; the origin is the server's. */
      readonly path: string
      /** name, value, name, value … as sent. */
      readonly headers: readonly string[]
      readonly body?: string
      status?: number
      answered?: Answered
    }
  | { readonly kind: 'wire'; bytes: string; status?: number; answered?: Answered }
  | { readonly kind: 'wait'; readonly ms: number; readonly why: 'wait' | 'eventually' | 'clock' }

/**
 * Response headers whose values later requests may carry and that differ from run to run: the ids of
 * created resources (Location) and the validators of conditional requests (Last-Modified, ETag).
 */
export type Answered = Partial<Record<(typeof ANSWERED_HEADERS)[number], string>>
export const ANSWERED_HEADERS = ['location', 'last-modified', 'etag'] as const

export interface CapturedScenario {
  readonly id: string
  readonly items: CapturedItem[]
}

/** One whole run: the reachability probe, exclusive scenarios, concurrent ones, the final sweep. */
export interface CapturedRun {
  readonly probe: CapturedItem[]
  readonly exclusive: CapturedScenario[]
  readonly concurrent: CapturedScenario[]
  readonly final: CapturedItem[]
}

/** The ANSWERED_HEADERS among `name: value` lines. */
export function answeredIn(lines: readonly string[]): Answered {
  const answered: Answered = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    if ((ANSWERED_HEADERS as readonly string[]).includes(name))
      answered[name as keyof Answered] = line.slice(colon + 1).trim()
  }
  return answered
}
