/**
 * `har`: a recording (NDJSON, one entry a line) → one HAR 1.2 file that browser dev tools import.
 * Streamed: entries go out as they are read, so memory does not grow with the recording.
 *
 *   {"log":{"version":"1.2","creator":{"name":"fitconform","version":"0.1.0"},"pages":[],"entries":[{…},{…}]}}
 *
 * Entries keep our `_` fields (HAR 1.2 allows custom fields that start with an underscore).
 */
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { readRecording } from './exchange-log.js'

export interface HarFileResult {
  readonly entries: number
  readonly skippedLines: number
}

export async function writeHarFile(inputs: readonly string[], output: string, creatorVersion: string): Promise<HarFileResult> {
  const out = createWriteStream(output)
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed])
  }
  let entries = 0
  let skippedLines = 0
  const creator = { name: 'fitconform', version: creatorVersion, comment: 'recorded by fitconform proxy' }
  await write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`)
  for (const input of inputs) {
    for await (const line of readRecording(input)) {
      if ('problem' in line) {
        skippedLines += 1
        continue
      }
      await write(`${entries === 0 ? '\n' : ',\n'}${JSON.stringify(line.entry)}`)
      entries += 1
    }
  }
  await write('\n]}}\n')
  out.end()
  await Promise.race([once(out, 'finish'), failed])
  return { entries, skippedLines }
}
