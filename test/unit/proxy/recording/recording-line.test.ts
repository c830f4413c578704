import { describe, expect, it } from 'vitest'
import { ExchangeMemo } from '../../../../proxy/recording/bytes-memo.js'
import {
  createRingMemory,
  recordClock,
  recordIdentity,
  RingReader,
  RingWriter,
} from '../../../../proxy/recording/exchange-ring.js'
import type { ExchangeLog } from '../../../../proxy/recording/exchange-log.js'
import {
  emptyStats,
  processAgain,
  processExchange,
  type ProcessOptions,
} from '../../../../proxy/recording/process-exchange.js'
import type { CapturedExchange } from '../../../../proxy/recording/recorder.js'
import { joinLine, lineParts } from '../../../../proxy/recording/recording-line.js'
import { SecretScrubber } from '../../../../proxy/recording/redaction.js'
import { stableStringify } from '../../../../proxy/recording/stable-json.js'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'

const TOKEN = 'secret-token-0123456789'
const FEED_TYPE = 'application/vnd.com.service.FitnessActivityFeed+json'
const target = new URL('http://127.0.0.1:9/base')

/** A feed page that quotes the token (raw, percent-encoded and JSON-escaped), so that scrubbing has work in every part of the line. */
function exchange(id: number, startedAt = 1_700_000_000_000 + id, items = 1): CapturedExchange {
  const page = Buffer.from(
    JSON.stringify({
      size: items,
      items: Array.from({ length: items }, () => ({
        type: 'Running',
        start_time: 'Tue, 1 Mar 2011 07:00:00',
        total_distance: 10,
        duration: 60,
        uri: `/fitnessActivities/${TOKEN}`,
      })),
      note: `%73ecret-token-0123456789 \\u0073ecret`,
    }),
  )
  return {
    id,
    startedAt: new Date(startedAt),
    method: 'GET',
    clientPath: `/fitnessActivities?access_token=${TOKEN}`,
    upstreamPath: `/base/fitnessActivities?access_token=${TOKEN}`,
    httpVersion: 'HTTP/1.1',
    requestHeaders: [
      'Host',
      '127.0.0.1:9',
      'Authorization',
      `Bearer ${TOKEN}`,
      'Accept',
      FEED_TYPE,
      'Cookie',
      'session=abcdef123456',
    ],
    requestBody: { bytes: Buffer.alloc(0), size: 0, truncated: false },
    response: {
      status: 200,
      statusText: 'OK',
      rawHeaders: [
        'Content-Type',
        FEED_TYPE,
        'Content-Length',
        String(page.length),
        'Set-Cookie',
        'session=abcdef123456; Path=/',
        'X-Echo',
        TOKEN,
      ],
      body: { bytes: page, size: page.length, truncated: false },
    },
    times: { start: 10 + id, requestSent: 10.25 + id, responseStart: 11 + id, end: 12.5 + id },
  }
}

/** Processing options that keep the lines written and the lines printed. */
function collecting(redactor: SecretScrubber): {
  options: ProcessOptions
  written: string[]
  printed: string[]
} {
  const written: string[] = []
  const printed: string[] = []
  const log: ExchangeLog = {
    append: (pieces) => written.push(pieces.join('')),
    flush: () => ({ written: 0, lost: 0 }),
    close: () => ({ written: 0, lost: 0 }),
  }
  const options: ProcessOptions = {
    target,
    redactor,
    log,
    strict: false,
    maxBodyBytes: 1024 * 1024,
    quiet: false,
    print: (line) => printed.push(line),
    printProblem: (line) => printed.push(line),
  }
  return { options, written, printed }
}

describe('a recording line in parts', () => {
  it('is the whole line scrubbed at once, secrets in the head, the body, the id and the clock included', async () => {
    const redactor = new SecretScrubber({ key: 'k' })
    // Learnt before, so that the id (19700) and the clock (1970-…) hold a secret too.
    redactor.learn([['x-api-key', '1970']])
    const { options, written } = collecting(redactor)
    await processExchange({ ...exchange(19_700, 0) }, options, emptyStats())
    const [line] = written
    expect(line).toContain('"_id":[redacted hdr_')
    expect(line).not.toContain(TOKEN)

    // The same exchange, the line scrubbed whole: the redactor told to refuse parts.
    const whole = new SecretScrubber({ key: 'k' })
    whole.learn([['x-api-key', '1970']])
    whole.learn([['x-api-key', 'a:b:c:d']]) // a secret with a `:`: lines are then scrubbed whole
    expect(whole.scrubsLineInParts()).toBe(false)
    const old = collecting(whole)
    await processExchange({ ...exchange(19_700, 0) }, old.options, emptyStats())
    expect(old.written).toHaveLength(1)
    expect(old.written[0]).toBe(line)
  })

  it('joins to stableStringify of the entry, in parts or whole, when there is nothing to scrub', async () => {
    const recorded = collecting(new SecretScrubber({ key: 'k' }))
    await processExchange(exchange(3), recorded.options, emptyStats())
    const line = recorded.written[0] as string
    const entry = JSON.parse(line) as ExchangeEntry
    expect(stableStringify(entry)).toBe(line)
    const inParts = new SecretScrubber({ key: 'k' })
    const whole = new SecretScrubber({ key: 'k' })
    whole.learn([['x-api-key', 'a,b,c,d']])
    expect(lineParts(entry, inParts).scrubbed).toBe(true)
    expect(lineParts(entry, whole).scrubbed).toBe(false)
    for (const redactor of [inParts, whole])
      expect(joinLine(lineParts(entry, redactor), entry._id, exchange(3), redactor).join('')).toBe(line)
  })

  it('scrubs a response seen before again once a secret is learnt, as scrubbing the line whole does', async () => {
    const recorded = collecting(new SecretScrubber({ key: 'k' }))
    await processExchange(exchange(3), recorded.options, emptyStats())
    const entry = JSON.parse(recorded.written[0] as string) as ExchangeEntry
    const redactor = new SecretScrubber({ key: 'k' })
    // The response's text, scrubbed and kept by the redactor's memo before the secret is known.
    expect(joinLine(lineParts(entry, redactor), entry._id, exchange(3), redactor).join('')).toContain('Running')
    redactor.learn([['x-api-key', 'Running']])
    const line = joinLine(lineParts(entry, redactor), entry._id, exchange(3), redactor).join('')
    expect(line).not.toContain('Running')
    expect(line).toBe(redactor.scrubLine(stableStringify(entry)))
  })
})

describe('a long response text, escaped once and kept', () => {
  // 25 items: past the length from which the escaped text is kept (recording-line.ts).
  const long = (id: number): CapturedExchange => exchange(id, 1_700_000_000_000 + id, 25)

  it('is written as stableStringify writes it, the first time and from what was kept', async () => {
    const recorded = collecting(new SecretScrubber({ key: 'k' }))
    await processExchange(long(3), recorded.options, emptyStats())
    await processExchange(long(4), recorded.options, emptyStats())
    for (const line of recorded.written) {
      const entry = JSON.parse(line) as ExchangeEntry
      expect(entry.response.content.text?.length).toBeGreaterThan(2000)
      expect(stableStringify(entry)).toBe(line)
    }
    const entry = JSON.parse(recorded.written[0] as string) as ExchangeEntry
    const redactor = new SecretScrubber({ key: 'k' })
    for (let again = 0; again < 2; again += 1)
      expect(joinLine(lineParts(entry, redactor), entry._id, long(3), redactor).join('')).toBe(recorded.written[0])
  })

  it('is scrubbed again once a secret is learnt, as scrubbing the line whole does', async () => {
    const recorded = collecting(new SecretScrubber({ key: 'k' }))
    await processExchange(long(3), recorded.options, emptyStats())
    const entry = JSON.parse(recorded.written[0] as string) as ExchangeEntry
    const redactor = new SecretScrubber({ key: 'k' })
    expect(joinLine(lineParts(entry, redactor), entry._id, long(3), redactor).join('')).toContain('Running')
    redactor.learn([['x-api-key', 'Running']])
    const line = joinLine(lineParts(entry, redactor), entry._id, long(3), redactor).join('')
    expect(line).not.toContain('Running')
    expect(line).toBe(redactor.scrubLine(stableStringify(entry)))
  })

  it('holds no secret the request told, in any of its forms', async () => {
    const recorded = collecting(new SecretScrubber({ key: 'k' }))
    await processExchange(long(3), recorded.options, emptyStats())
    const line = recorded.written[0] as string
    expect(line).not.toContain(TOKEN)
    expect(line).not.toContain('%73ecret-token')
  })
})

describe('an exchange made again', () => {
  it.each([
    ['its line in parts', []],
    ['its line scrubbed whole (a secret holds `:`)', ['a:b:c:d']],
  ])('is recorded, counted and printed exactly as processing it anew would: %s', async (_title, secrets) => {
    const stats = emptyStats()
    const redactor = new SecretScrubber({ key: 'k' })
    for (const secret of secrets) redactor.learn([['x-api-key', secret]])
    const again = collecting(redactor)
    const known = await processExchange(exchange(1), again.options, stats)
    expect(known?.generation).toBe(redactor.generation)
    const second = exchange(2, 1_700_000_123_456)
    processAgain(known!, { id: second.id, startedAt: second.startedAt, times: second.times }, again.options, stats)

    const fresh = collecting(SecretScrubber.fromSettings(redactor.settings()))
    const freshStats = emptyStats()
    await processExchange(exchange(1), fresh.options, freshStats)
    await processExchange(second, fresh.options, freshStats)
    expect(again.written).toEqual(fresh.written)
    expect(again.printed).toEqual(fresh.printed)
    expect(stats).toEqual(freshStats)
    expect(again.written[1]).toContain('"_id":2,')
  })

  it('is known by every byte of what it was, not by its id or clock', () => {
    const memory = createRingMemory(64 * 1024)
    const writer = new RingWriter(memory)
    const reader = new RingReader(memory)
    const memo = new ExchangeMemo<string>({ maxBytes: 1024 * 1024 })
    const changed = exchange(3)
    const other: CapturedExchange = {
      ...changed,
      response: { ...changed.response!, rawHeaders: [...changed.response!.rawHeaders.slice(0, -1), 'other'] },
    }
    const seen: (string | undefined)[] = []
    for (const each of [exchange(1), exchange(2), other]) {
      writer.tryAppend(each)
      const record = reader.peek()!
      expect(recordClock(record)).toEqual({ id: each.id, startedAt: each.startedAt, times: each.times })
      seen.push(memo.get(recordIdentity(record)))
      memo.set(recordIdentity(record), `#${each.id}`, 0)
      reader.advance()
    }
    expect(seen).toEqual([undefined, '#1', undefined])
    expect(reader.peek()).toBeUndefined()
  })

  it('is forgotten once the memo is full, which then starts over', () => {
    const memo = new ExchangeMemo<number>({ maxBytes: 16 * 100 })
    for (let i = 0; i < 20; i += 1) memo.set(Buffer.alloc(90, i), i, 0)
    expect(memo.get(Buffer.alloc(90, 0))).toBeUndefined()
    expect(memo.get(Buffer.alloc(90, 19))).toBe(19)
    memo.set(Buffer.alloc(200), 1, 0) // larger than a 16th of the memo: not kept
    expect(memo.get(Buffer.alloc(200))).toBeUndefined()
  })
})
