import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openExchangeLog, readRecording } from '../../../proxy/exchange-log.js'
import { Redactor } from '../../../proxy/redaction.js'
import type { ExchangeEntry } from '../../../src/model/exchange.js'

const entry = (id: number, text: string): ExchangeEntry => ({
  _id: id,
  _findings: [],
  startedDateTime: '2026-01-01T00:00:00.000Z',
  time: 1,
  request: { method: 'GET', url: 'http://h/user', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
  response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: text.length, mimeType: 'text/plain', text }, redirectURL: '', headersSize: -1, bodySize: text.length },
  cache: {},
  timings: { send: 0, wait: 1, receive: 0 },
})

describe('exchange log', () => {
  it('writes sorted keys, scrubs known secrets from the whole line, and reads past a cut last line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fitconform-log-')), 'r.ndjson')
    const redactor = new Redactor()
    redactor.learn([['authorization', 'Bearer very-secret-token']])
    const log = openExchangeLog({ file, redactor })
    log.append(entry(1, 'echo: very-secret-token'))
    log.append(entry(2, 'ok'))
    log.close()
    appendFileSync(file, '{"_id":3,"request":{"meth')
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain('very-secret-token')
    expect(text.indexOf('"_findings"')).toBeLessThan(text.indexOf('"_id"'))
    const lines = []
    for await (const line of readRecording(file)) lines.push('problem' in line ? 'problem' : line.entry._id)
    expect(lines).toEqual([1, 2, 'problem'])
  })
})
