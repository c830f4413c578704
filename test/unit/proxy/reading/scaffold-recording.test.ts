// scaffoldRecording streams a recording file: repeated flows become one scenario, a flow with another
// finding its own, and the left-out exchanges are counted past the listed ones.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LEFT_OUT_LISTED, scaffoldRecording } from '../../../../proxy/scaffold/scaffold-recording.js'
import { stableStringify } from '../../../../proxy/recording/stable-json.js'
import { loadSuites } from '../../../../src/load/load-suites.js'
import type { EndpointRef, ExchangeEntry, Finding } from '../../../../src/model/exchange.js'
import { makeTempDir } from '../../../helpers/temp-dir.js'

const ACTIVITY = 'application/vnd.com.service.FitnessActivity+json'
let nextId = 1

function entry(
  method: string,
  path: string,
  status: number,
  extra: { endpoint?: EndpointRef; location?: string; contentType?: string; findings?: Finding[]; body?: unknown } = {},
): ExchangeEntry {
  const responseHeaders = [
    ...(extra.location === undefined ? [] : [{ name: 'location', value: extra.location }]),
    ...(extra.contentType === undefined ? [] : [{ name: 'content-type', value: extra.contentType }]),
  ]
  const text = extra.body === undefined ? undefined : JSON.stringify(extra.body)
  return {
    _id: nextId++,
    ...(extra.endpoint === undefined ? {} : { _endpoint: extra.endpoint }),
    _findings: extra.findings ?? [],
    _tokenId: 'tok_1',
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method,
      url: `http://127.0.0.1:9/api${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'authorization', value: 'Bearer [redacted tok_1]' }],
      queryString: [],
      headersSize: -1,
      bodySize: text?.length ?? 0,
      ...(text === undefined
        ? {}
        : { postData: { mimeType: 'application/vnd.com.service.NewFitnessActivity+json', text } }),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: responseHeaders,
      content: { size: 0, mimeType: extra.contentType ?? '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

function flow(n: number, findings: Finding[] = []): ExchangeEntry[] {
  const path = `/fitnessActivities/act${n}`
  return [
    entry('POST', '/fitnessActivities', 201, {
      endpoint: { row: 4, method: 'POST', path: '/fitnessActivities' },
      location: path,
      body: { type: 'Running', notes: `run ${n}` },
    }),
    entry('GET', path, 200, {
      endpoint: { row: 3, method: 'GET', path: '/fitnessActivities/<activity_id>' },
      contentType: ACTIVITY,
      findings,
    }),
    entry('DELETE', path, 204, { endpoint: { row: 8, method: 'DELETE', path: '/fitnessActivities/<activity_id>' } }),
  ]
}

const irregular: Finding = {
  kind: 'irregularity',
  rule: 'IRREG-ITEM-URI-FORM',
  pointer: '/uri',
  side: 'response',
  message: 'item uri',
}

describe('scaffoldRecording', () => {
  it('turns N repeated flows into one scenario and a flow with another finding into a second, streaming the file', async () => {
    const dir = makeTempDir('fitconform-scaffold-stream-')
    const entries = [...Array.from({ length: 300 }, (_, n) => flow(n)).flat(), ...flow(300, [irregular]), ...flow(301)]
    const unknown = Array.from({ length: LEFT_OUT_LISTED + 10 }, () => entry('GET', '/nowhere', 404))
    const lines = [...entries, ...unknown].map((each) => stableStringify(each))
    const file = join(dir, 'session.ndjson')
    writeFileSync(file, [...lines, '{"cut', ''].join('\n'))

    const skipped: string[] = []
    const outcome = await scaffoldRecording([file], {
      schemaPath: 'scenario.schema.json',
      onSkipped: (line) => skipped.push(`${line.file}:${line.line}`),
    })

    expect(outcome.files.map((each) => each.name)).toEqual([
      'scaffold-session-activity-flow-1.yaml',
      'scaffold-session-activity-flow-2.yaml',
    ])
    expect(outcome.files[0]?.text).toContain('stands for 903 recorded exchange(s) in 301 flows of this shape')
    expect(outcome.files[1]?.text).toContain('IRREG-ITEM-URI-FORM')
    expect(outcome.leftOut).toHaveLength(LEFT_OUT_LISTED)
    expect(outcome.leftOutCount).toBe(LEFT_OUT_LISTED + 10)
    expect(outcome.leftOut[0]?.reason).toBe('GET /nowhere is no endpoint of §4')
    expect(skipped).toEqual([`${file}:${lines.length + 1}`])

    const out = join(dir, 'out')
    mkdirSync(out)
    for (const each of outcome.files) writeFileSync(join(out, each.name), each.text)
    const loaded = await loadSuites([out])
    expect(loaded.diagnostics).toEqual([])
    expect(loaded.scenarios).toHaveLength(2)
  })
})
