// A long request-target is cut on the console and kept whole in the recording (issue 25 leftover, issue 30
// brief): an 8 KiB query string used to fill every live line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { startLoopbackServer, type LoopbackServer } from '../../../helpers/loopback-server.js'
import { request, startTestProxy } from '../helpers.js'

const LONG_QUERY = `q=${'a'.repeat(8 * 1024)}`
const LONG_PATH = `/no-such-endpoint/${'b'.repeat(8 * 1024)}`

describe('a long request-target', () => {
  let server: LoopbackServer
  let printed: string[]
  let entries: ExchangeEntry[]

  beforeAll(async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/vnd.com.service.User+json' }).end('{"userID":1}')
    })
    const proxy = await startTestProxy(server.url)
    const base = proxy.proxy.url
    await request(`${base}/user?${LONG_QUERY}`)
    await request(`${base}${LONG_PATH}`)
    entries = await proxy.stop()
    printed = proxy.printed.join('\n').split('\n')
  })

  afterAll(async () => {
    await server.close()
  })

  it('is cut on each console line, which says how long it was', () => {
    const exchangeLines = printed.filter((line) => line.startsWith('#'))
    expect(exchangeLines).toHaveLength(2)
    for (const line of printed) expect(line.length).toBeLessThan(1000)
    expect(exchangeLines[0]).toMatch(/^#1 GET \/user\?q=a+… \(8,200 characters\) 200 /)
    expect(exchangeLines[1]).toMatch(/^#2 GET \/no-such-endpoint\/b+… \(8,210 characters\) 200 /)
    // The finding quoting the path is cut as well.
    expect(printed.some((line) => line.includes('unknown-endpoint') && line.includes('characters)'))).toBe(true)
  })

  it('stays whole in the recording', () => {
    expect(entries.map((entry) => new URL(entry.request.url).pathname + new URL(entry.request.url).search)).toEqual([
      `/user?${LONG_QUERY}`,
      LONG_PATH,
    ])
    expect(server.requests).toEqual([`GET /user?${LONG_QUERY}`, `GET ${LONG_PATH}`])
  })
})
