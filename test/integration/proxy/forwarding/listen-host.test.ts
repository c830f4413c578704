// `fitconform proxy --host` (issue 17): it listens where it is told and forwards from there; anything
// but a loopback address is warned about, since the traffic carries tokens. Only loopback addresses
// are listened on here (127.0.0.2, ::1); the warning rule itself is a table.
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostWarning, isLoopbackHost } from '../../../../proxy/commands/listen-address.js'
import { runProxyCommand } from '../../../../proxy/commands/proxy-command.js'
import { request } from '../helpers.js'

let upstream: http.Server
let target: URL

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`upstream saw ${req.url}`)
  })
  upstream.listen(0, '127.0.0.1')
  await once(upstream, 'listening')
  target = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
})

afterAll(async () => {
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})

describe.each([
  { host: '127.0.0.2', url: /^http:\/\/127\.0\.0\.2:\d+$/ },
  { host: '::1', url: /^http:\/\/\[::1\]:\d+$/ },
])('proxy --host $host', ({ host, url }) => {
  it('listens there, forwards, and prints no warning', async () => {
    const err: string[] = []
    const stop = new AbortController()
    let listening = ''
    let answer = ''
    const exit = runProxyCommand(
      {
        target,
        host,
        signal: stop.signal,
        onReady: (proxyUrl) => {
          listening = proxyUrl
          void request(`${proxyUrl}/user`).then((got) => {
            answer = got.body.toString()
            stop.abort()
          })
        },
      },
      { out: () => {}, err: (line) => err.push(line) },
    )
    expect(await exit).toBe(0)
    expect(listening).toMatch(url)
    expect(answer).toBe('upstream saw /user')
    expect(err.filter((line) => line.startsWith('warning'))).toEqual([])
  })
})

describe('which --host values are warned about', () => {
  it.each([
    { host: '127.0.0.1', loopback: true },
    { host: '127.0.0.2', loopback: true },
    { host: 'localhost', loopback: true },
    { host: '::1', loopback: true },
    { host: '0:0:0:0:0:0:0:1', loopback: true },
    { host: '0.0.0.0', loopback: false },
    { host: '::', loopback: false },
    { host: '192.168.1.10', loopback: false },
    { host: 'fe80::1', loopback: false },
    { host: 'example.test', loopback: false },
  ])('$host: loopback $loopback', ({ host, loopback }) => {
    expect(isLoopbackHost(host)).toBe(loopback)
    // proxy, mock and serve print this before listening: only an address other machines may reach gets it.
    expect(hostWarning(host)).toBe(
      loopback
        ? undefined
        : `warning: listening on ${host}, not on loopback: traffic with tokens will be reachable from the network (whoever can reach ${host} can use and read it)`,
    )
  })
})
