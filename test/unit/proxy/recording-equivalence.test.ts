// The recording thread's step against processing every exchange anew, on the bench's realistic mix:
// exchanges made again (the same bytes but for their id and clock) are recorded from the first one's
// template (`ExchangeMemo` of bytes-memo.ts), every other one through processExchange. Lines, printed
// lines and counts must be those of processing each exchange anew.
import { describe, expect, it } from 'vitest'
import { createRealisticExchanges } from '../../../bench/support/realistic-exchanges.js'
import { ObservedRelations } from '../../../proxy/analyze/relations/observed-relations.js'
import type { ExchangeLog } from '../../../proxy/recording/exchange-log.js'
import { createRingMemory, RingReader, RingWriter } from '../../../proxy/recording/exchange-ring.js'
import {
  emptyStats,
  processExchange,
  type PipelineStats,
  type ProcessOptions,
} from '../../../proxy/recording/process-exchange.js'
import type { CapturedExchange } from '../../../proxy/recording/recorder.js'
import { SecretScrubber } from '../../../proxy/recording/redaction.js'
import { RingRecording } from '../../../proxy/recording/ring-recording.js'

const target = new URL('http://127.0.0.1:8080')

function session(): { options: ProcessOptions; written: string[]; printed: string[]; stats: PipelineStats } {
  const written: string[] = []
  const printed: string[] = []
  const log: ExchangeLog = {
    append: (pieces) => written.push(pieces.join('')),
    flush: () => ({ written: 0, lost: 0 }),
    close: () => ({ written: 0, lost: 0 }),
  }
  const options: ProcessOptions = {
    target,
    redactor: new SecretScrubber({ key: 'equivalence' }),
    log,
    strict: false,
    relations: new ObservedRelations(),
    maxBodyBytes: 1024 * 1024,
    quiet: false,
    print: (line) => printed.push(line),
    printProblem: (line) => printed.push(line),
  }
  return { options, written, printed, stats: emptyStats() }
}

/** The realistic mix, each exchange followed by the same exchange made again (another id and clock). */
function traffic(count: number): CapturedExchange[] {
  const exchange = createRealisticExchanges('Bearer equivalence-token-0123456789')
  const out: CapturedExchange[] = []
  for (let n = 1; n <= count; n += 1) {
    const first = exchange(n)
    const { start } = first.times
    out.push(first, {
      ...first,
      id: first.id + 100_000,
      startedAt: new Date(first.startedAt.getTime() + 7),
      times: { start: start + 7, requestSent: start + 7.5, responseStart: start + 8, end: start + 9.25 },
    })
  }
  return out
}

describe('the recording step on the realistic mix', () => {
  it('records, prints and counts as processing every exchange anew', async () => {
    const exchanges = traffic(240)
    const stepped = session()
    const memory = createRingMemory(8 * 1024 * 1024)
    const writer = new RingWriter(memory)
    const recording = new RingRecording(new RingReader(memory))
    for (const exchange of exchanges) {
      expect(writer.tryAppend(exchange)).toBe(true)
      await recording.recordNext(stepped.options, stepped.stats)
    }
    const anew = session()
    for (const exchange of exchanges) await processExchange(exchange, anew.options, anew.stats)

    expect(stepped.written).toHaveLength(exchanges.length)
    expect(stepped.written).toEqual(anew.written)
    expect(stepped.printed).toEqual(anew.printed)
    expect(stepped.stats).toEqual(anew.stats)
    expect(stepped.written.join('\n')).not.toContain('equivalence-token')
  })
})
