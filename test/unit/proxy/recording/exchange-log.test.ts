import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openExchangeLog, recordingFiles } from '../../../../proxy/recording/exchange-log.js'
import { readExchanges } from '../../../../proxy/reading/read-exchanges.js'
import { stableStringify } from '../../../../proxy/recording/stable-json.js'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

/** A line as recording-line.ts writes one (scrubbing is its job, tested in recording-line.test.ts). */
const line = (id: number, text: string): string => stableStringify(entry(id, text))

const entry = (id: number, text: string): ExchangeEntry => ({
  _id: id,
  _findings: [],
  startedDateTime: '2026-01-01T00:00:00.000Z',
  time: 1,
  request: {
    method: 'GET',
    url: 'http://h/user',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    queryString: [],
    headersSize: -1,
    bodySize: 0,
  },
  response: {
    status: 200,
    statusText: 'OK',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: text.length, mimeType: 'text/plain', text },
    redirectURL: '',
    headersSize: -1,
    bodySize: text.length,
  },
  cache: {},
  timings: { send: 0, wait: 1, receive: 0 },
})

describe('exchange log', () => {
  it('writes the lines it is given, one a line, and reads past a cut last line', async () => {
    const file = join(makeTempDir('fitconform-log-'), 'r.ndjson')
    const log = openExchangeLog({ file })
    log.append([line(1, 'echo')])
    log.append([line(2, 'ok')])
    log.close()
    appendFileSync(file, '{"_id":3,"request":{"meth')
    const text = readFileSync(file, 'utf8')
    expect(text.startsWith(`${line(1, 'echo')}\n${line(2, 'ok')}\n`)).toBe(true)
    expect(text.indexOf('"_findings"')).toBeLessThan(text.indexOf('"_id"'))
    const lines: (number | string)[] = []
    for await (const { entry } of readExchanges([file], ({ line }) => lines.push(`cut line ${line}`)))
      lines.push(entry._id)
    expect(lines).toEqual([1, 2, 'cut line 3'])
  })

  it('writes gathered lines only on flush, and rotates between them without losing or cutting one', async () => {
    const file = join(makeTempDir('fitconform-log-'), 'r.ndjson')
    const log = openExchangeLog({ file, maxBytes: 1200 })
    for (let id = 1; id <= 6; id += 1) log.append([line(id, 'x'.repeat(200))])
    expect(readFileSync(file, 'utf8')).toBe('')
    log.flush()
    log.append([line(7, 'last')])
    log.close()
    const files = recordingFiles(file)
    expect(files.length).toBeGreaterThan(2)
    const ids: (number | string)[] = []
    for await (const { entry } of readExchanges(files, ({ line }) => ids.push(`skipped line ${line}`)))
      ids.push(entry._id)
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('writes a long piece given again, and one of many-byte characters, byte for byte as given', () => {
    const file = join(makeTempDir('fitconform-log-'), 'r.ndjson')
    const log = openExchangeLog({ file, maxBytes: 64 * 1024 })
    // The pieces of a line as joinLine gives them: a long response text comes as the same string each time.
    const text = `${JSON.stringify(`Zürich → Genève 🏃 ${'ü'.repeat(2000)}`)}}`
    const ascii = `${JSON.stringify('a'.repeat(3000))}}`
    const lines = [1, 2, 3, 4].map((id) => [
      '{"_id":',
      String(id),
      ',"response":{"text":',
      id % 2 === 0 ? ascii : text,
      '}',
    ])
    for (const pieces of lines) log.append(pieces)
    log.close()
    expect(readFileSync(file, 'utf8')).toBe(lines.map((pieces) => `${pieces.join('')}\n`).join(''))
  })

  it('writes a piece too long to keep, given twice, whole both times', () => {
    const file = join(makeTempDir('fitconform-log-'), 'r.ndjson')
    const log = openExchangeLog({ file })
    const text = `${JSON.stringify('é'.repeat(300_000))}}`
    for (const id of [1, 2]) log.append(['{"_id":', String(id), ',"response":{"text":', text, '}'])
    log.close()
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toEqual([1, 2].map((id) => `{"_id":${id},"response":{"text":${text}}`).concat(''))
  })
})
