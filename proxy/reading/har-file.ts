/**
 * `har`: a recording (NDJSON, one entry a line) → one HAR 1.2 file that browser dev tools import.
 * Streamed: entries go out as they are read, so memory does not grow with the recording.
 *
 *   {"log":{"version":"1.2","creator":{"name":"fitconform","version":"0.1.0"},"pages":[],"entries":[{…},{…}]}}
 *
 * Entries keep our `_` fields (HAR 1.2 allows custom fields that start with an underscore).
 */
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { readExchanges, type SkippedLine } from './read-exchanges.js'

export interface HarFileResult {
  readonly entries: number
}

export interface HarWriteOptions {
  readonly creatorVersion: string
  readonly onSkipped: (skipped: SkippedLine) => void
  /** End `out` when done (a file); false for stdout, which the process still uses. */
  readonly end: boolean
}

/** Writes the HAR to `out` and waits until it is flushed. */
export async function writeHarFile(
  inputs: readonly string[],
  out: Writable,
  options: HarWriteOptions,
): Promise<HarFileResult> {
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  // A stream error with nothing waiting on `failed` yet must not become an unhandled rejection.
  failed.catch(() => {})
  // `once` rejects when the stream fails while we wait. Not a race with `failed`: every race leaves a
  // reaction on that pending promise until the end, one per drain, and memory grew with the recording
  // (docs/benchmarks.md, memory at scale).
  const write = async (text: string): Promise<void> => {
    if (out.write(text)) return
    if (out.errored) throw out.errored
    await once(out, 'drain')
  }
  let entries = 0
  const creator = { name: 'fitconform', version: options.creatorVersion, comment: 'recorded by fitconform proxy' }
  await write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`)
  for await (const { entry } of readExchanges(inputs, options.onSkipped)) {
    await write(`${entries === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`)
    entries += 1
  }
  await write('\n]}}\n')
  if (options.end) {
    out.end()
    await Promise.race([once(out, 'finish'), failed])
  }
  return { entries }
}
