// Golden files: the first screen a user reads, committed, so that a change to it shows up in review.
// `UPDATE_GOLDEN=1 npx vitest run test/e2e/golden-output.test.ts` writes them anew; review the diff.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { expect } from 'vitest'

/**
 * What changes from run to run, replaced by a fixed word: ports, durations, dates, the heartbeat a
 * slow machine adds every five seconds. What is left is what the same server makes us print.
 */
export function stabilise(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => !/^… \d+\/\d+ scenarios done, .* elapsed; /.test(line))
      .join('\n')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<date>')
      // HTTP dates (RFC 9110 §5.6.7) and the spec's own times (§2.3 start_time), which a run picks anew.
      .replace(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}(?: GMT)?/g, '<time>')
      .replace(/\b\d+(?:\.\d+)?m?s\b/g, '<duration>')
      // The marker a run writes into what it creates, so that it can find and delete it (§ cleanup).
      .replace(/fitconform-run-[0-9a-f]{8}/g, 'fitconform-run-<marker>')
  )
}

/** Compares with the golden file; with UPDATE_GOLDEN=1, writes it instead. */
export function expectGolden(file: string, actual: string): void {
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, actual)
    return
  }
  expect(existsSync(file), `${file} is missing: UPDATE_GOLDEN=1 writes it`).toBe(true)
  expect(actual, `${file} (UPDATE_GOLDEN=1 writes it anew; review the diff)`).toBe(readFileSync(file, 'utf8'))
}
