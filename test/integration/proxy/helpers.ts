// Helpers for the proxy tests: a raw node:http client that keeps every byte and header as received,
// a recording proxy on port 0 with its output collected, and reading a recording back.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { join } from 'node:path'
import type { ExchangeEntry } from '../../../src/model/exchange.js'
import { startProxy, type ProxyOptions, type RunningProxy } from '../../../proxy/forward/proxy-server.js'
import { SecretScrubber } from '../../../proxy/recording/redaction.js'
import { proxySettings, type ProxyFlags } from '../../../proxy/forward/proxy-settings.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

export interface Received {
  status: number
  statusText: string
  rawHeaders: string[]
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export interface ClientOptions extends http.RequestOptions {
  body?: string | Buffer
  ca?: string | Buffer
}

/** One request; the body is read whole. Uses a keep-alive agent when given one. */
export function request(url: string, options: ClientOptions = {}): Promise<Received> {
  const { body, ...rest } = options
  const transport = url.startsWith('https:') ? https : http
  return new Promise((resolve, reject) => {
    const req = transport.request(url, rest, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          rawHeaders: res.rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export interface TestProxy {
  proxy: RunningProxy
  file: string
  printed: string[]
  /** Closes the proxy and returns the recording's entries. */
  stop(): Promise<ExchangeEntry[]>
}

/** `fitconform proxy --target <target> --record <a temporary file>` with these flags, started in this process. */
export async function startTestProxy(
  target: string,
  options: Omit<ProxyFlags, 'target'> & Partial<Omit<ProxyOptions, 'settings'>> = {},
): Promise<TestProxy> {
  const dir = makeTempDir('fitconform-proxy-')
  const file = join(dir, 'recording.ndjson')
  const printed: string[] = []
  const { redactor, tls, print, printProblem, closeGraceMs, ...flags } = options
  const proxy = await startProxy({
    settings: proxySettings({ target: new URL(target), record: file, ...flags }),
    redactor: redactor ?? new SecretScrubber(),
    tls,
    print: print ?? ((line) => printed.push(line)),
    printProblem,
    closeGraceMs,
  })
  return {
    proxy,
    file,
    printed,
    stop: async () => {
      await proxy.close()
      return readEntries(file)
    },
  }
}

export function readEntries(file: string): ExchangeEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ExchangeEntry)
}

export const media = (name: string): string => `application/vnd.com.service.${name}+json`

/** Headers a proxy may change (RFC 9110 §7.6.1 hop-by-hop, plus Date and Host). */
const MAY_DIFFER = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
  'host',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
])

/** `[name, value]` pairs of the end-to-end headers, names lower-cased, in order. */
export function endToEnd(rawHeaders: readonly string[]): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    if (!MAY_DIFFER.has(name)) out.push([name, rawHeaders[i + 1] as string])
  }
  return out
}
