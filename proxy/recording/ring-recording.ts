/**
 * The recording thread's step (pipeline-worker.ts), on its own so that the bench measures the very
 * same work (bench/support/recording-work.ts): the next exchange of the ring, recorded. An exchange
 * made again (the same bytes but for its id and clock: `ExchangeMemo` of bytes-memo.ts) is recorded
 * from what the first one left (`processAgain`), without being decoded; any other is decoded and
 * processed.
 */
import { BodyCopies, ExchangeMemo } from './bytes-memo.js'
import { decodeRecord, recordClock, recordIdentity, type RingReader } from './exchange-ring.js'
import {
  processAgain,
  processExchange,
  type RecordingTemplate,
  type PipelineStats,
  type ProcessOptions,
} from './process-exchange.js'

/**
 * Memory for exchanges seen before: at saturation a client typically polls a few pages, and an
 * exchange seen before costs the recording thread a fraction of a new one (measured: docs/benchmarks.md).
 */
const SEEN_BYTES = 8 * 1024 * 1024
/** Memory for bodies read before, in exchanges that differ (each request with an id of its own). */
const BODY_BYTES = 8 * 1024 * 1024

export class RingRecording {
  readonly #ring: RingReader
  readonly #seen = new ExchangeMemo<RecordingTemplate>({ maxBytes: SEEN_BYTES })
  readonly #bodies = new BodyCopies({ maxBytes: BODY_BYTES })

  constructor(ring: RingReader) {
    this.#ring = ring
  }

  /**
   * Records the next exchange of the ring and frees its room; false when the ring is empty. An exchange
   * seen before is recorded at once (no promise to wait for: at saturation that is every exchange).
   */
  recordNext(options: ProcessOptions, stats: PipelineStats): boolean | Promise<boolean> {
    const record = this.#ring.peek()
    if (record === undefined) return false
    const identity = recordIdentity(record)
    const known = this.#seen.get(identity)
    if (known === undefined || known.generation !== options.redactor.generation)
      return this.#recordNew(record, identity, options, stats)
    processAgain(known, recordClock(record), options, stats)
    this.#ring.advance()
    return true
  }

  async #recordNew(record: Buffer, identity: Buffer, options: ProcessOptions, stats: PipelineStats): Promise<boolean> {
    const processed = await processExchange(decodeRecord(record, this.#bodies.copy), options, stats)
    // The record's room is still held (the identity is a view of it) until the memo has its copy.
    if (processed !== undefined)
      this.#seen.set(
        identity,
        processed,
        2 * ((processed.parts?.head.length ?? 0) + textLength(processed.parts?.body ?? [])),
      )
    this.#ring.advance()
    return true
  }
}

function textLength(pieces: readonly string[]): number {
  let length = 0
  for (const piece of pieces) length += piece.length
  return length
}
