// The proxy's judgements over a session, on real traffic: a suite run through the proxy in front of
// the reference server. Against each conforming mode (the whole default suite: writes, paging, scopes,
// conditional reads, all five tokens, run concurrently) no response gets a violation; against a
// mutant, the proxy names the rule it breaks from the traffic alone; a small server whose feed shows
// distances in other units than its activities is caught once both were seen.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExchangeEntry } from '../../../../src/model/exchange.js'
import { startReferenceServer, type ReferenceServerOptions } from '../../../../reference-server/index.js'
import { packageRoot } from '../../../../src/shared/package-root.js'
import { runAnalyzeCommand } from '../../../../proxy/commands/analyze-command.js'
import { SecretScrubber } from '../../../../proxy/recording/redaction.js'
import { media, request, startTestProxy } from '../helpers.js'
import { demoTarget, runSuites } from './run-suites.js'

/** Runs the suites given through a recording proxy in front of a reference server; the recording's entries. */
async function recordSuites(server: ReferenceServerOptions, suites: readonly string[]): Promise<ExchangeEntry[]> {
  const reference = await startReferenceServer(server)
  try {
    const proxy = await startTestProxy(reference.url)
    await runSuites(
      suites.map((suite) => join(packageRoot(), 'suites', suite)),
      demoTarget(reference, proxy.proxy.url),
    )
    return await proxy.stop()
  } finally {
    await reference.close()
  }
}

function responseViolations(entries: readonly ExchangeEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry._findings
      .filter((f) => f.kind === 'violation' && f.side === 'response')
      .map(
        (f) =>
          `#${entry._id} ${entry.request.method} ${entry.request.url} → ${entry.response.status} ${f.rule ?? '-'}: ${f.message}`,
      ),
  )
}

// Every test starts its own servers and proxy, and most of a run is waiting on the servers' one-second
// dates: the tests of this file run at the same time.

// The whole suite once; in the other modes the suites whose traffic the relations judge (paging,
// items and activities, conditional reads), to keep the test short.
describe.concurrent.each([
  ['reference', ['.']],
  ['quirky', ['feed', 'conditional', 'activity']],
  ['other-choices', ['feed', 'conditional', 'activity']],
] as const)('suites through the proxy, %s mode', (mode, suites) => {
  it(`gives no response a violation (${suites.join(', ')})`, async () => {
    const entries = await recordSuites({ mode }, suites)
    expect(entries.length).toBeGreaterThan(50)
    expect(responseViolations(entries)).toEqual([])
  }, 120_000)
})

describe.concurrent('relations the proxy sees on a mutant', () => {
  it.each([
    ['page-size-ignored', 'feed/feed-paging.yaml', 'FEED-PAGE-SIZE'],
    ['default-page-size-20', 'feed/feed-paging.yaml', 'FEED-DEFAULT-PAGE-SIZE'],
    ['scoped-previous-present', 'feed/feed-shape.yaml', 'FEED-SCOPED-NO-PREVIOUS'],
    ['activity-stale-304', 'conditional/conditional-activity.yaml', 'COND-ACTIVITY-MODIFIED'],
    ['activity-304-only-on-exact-date', 'conditional/conditional-activity.yaml', 'COND-ACTIVITY-NOT-MODIFIED'],
  ])(
    '%s, run with %s: %s',
    async (mutant, suites, rule) => {
      const rules = new Set(
        responseViolations(await recordSuites({ mutant }, [suites])).map((line) => /→ \d+ (\S+):/.exec(line)?.[1]),
      )
      expect(rules).toContain(rule)
    },
    60_000,
  )
})

describe.concurrent('item ↔ activity through the proxy', () => {
  const ITEM = {
    type: 'Running',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 5000,
    duration: 1800,
    uri: '/fitnessActivities/1',
  }
  /** A feed in metres, activities in kilometres: each answer valid on its own. */
  function startUnitsServer(): Promise<Server> {
    const server = createServer((req, res) => {
      if (req.url === '/fitnessActivities') {
        res
          .writeHead(200, { 'content-type': media('FitnessActivityFeed') })
          .end(JSON.stringify({ size: 1, items: [ITEM] }))
      } else {
        // A long path whose first 1,100 of 1,200 points give their timestamp as text.
        const path = Array.from({ length: 1200 }, (_, i) => ({
          timestamp: i < 1100 ? String(i) : i,
          altitude: 0,
          longitude: 0,
          latitude: 0,
          type: 'gps',
        }))
        res.writeHead(200, {
          'content-type': media('FitnessActivity'),
          'last-modified': 'Tue, 01 Mar 2011 07:00:00 GMT',
        })
        res.end(JSON.stringify({ ...ITEM, uri: req.url, userID: 1, equipment: 'None', total_distance: 5, path }))
      }
    })
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
  }

  it('judges the activity read after its feed item', async () => {
    const server = await startUnitsServer()
    try {
      const proxy = await startTestProxy(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      const headers = (name: string) => ({ authorization: 'Bearer t0k3n-value', accept: media(name) })
      await request(`${proxy.proxy.url}/fitnessActivities`, { headers: headers('FitnessActivityFeed') })
      await request(`${proxy.proxy.url}/fitnessActivities/1`, { headers: headers('FitnessActivity') })
      const [page, activity] = await proxy.stop()
      expect(page?._findings.filter((f) => f.kind === 'violation')).toEqual([])
      expect(
        activity?._findings.filter((f) => f.kind === 'violation' && f.rule !== 'ACTIVITY-PATH-POINT-FIELDS'),
      ).toEqual([
        expect.objectContaining({
          rule: 'FEED-ITEM-MATCHES-ACTIVITY',
          pointer: '/total_distance',
          message: expect.stringMatching(
            /^total_distance is 5, but this activity's item on a feed page seen earlier shows 5000/,
          ),
        }),
      ])
      expect(proxy.printed.join('\n')).toContain('violation FEED-ITEM-MATCHES-ACTIVITY /total_distance')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('tells a problem of many path points once per response, and adds them up across responses in analyze', async () => {
    const server = await startUnitsServer()
    try {
      const proxy = await startTestProxy(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      for (const id of ['2', '3'])
        await request(`${proxy.proxy.url}/fitnessActivities/${id}`, {
          headers: { authorization: 'Bearer t0k3n-value', accept: media('FitnessActivity') },
        })
      await proxy.stop()
      expect(
        proxy.printed.flatMap((printed) => printed.split('\n')).filter((line) => line.includes('/timestamp')),
      ).toEqual([
        expect.stringMatching(
          /violation ACTIVITY-PATH-POINT-FIELDS \/path\/0\/timestamp: 1100 of 1200 items: \/path\/\*\/timestamp /,
        ),
        expect.stringMatching(/violation ACTIVITY-PATH-POINT-FIELDS \/path\/0\/timestamp: 1100 of 1200 items: /),
      ])
      const out: string[] = []
      await runAnalyzeCommand([proxy.file], {}, { out: (line) => out.push(line), err: () => {} })
      expect(out).toContainEqual(
        expect.stringMatching(
          /violation +ACTIVITY-PATH-POINT-FIELDS +×2 +\/path\/\*\/timestamp: 2,200 of 2,400 items in 2 responses$/,
        ),
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe.concurrent('a Profile read, a route §4 does not list', () => {
  it('is validated as a Profile and masked by --redact-personal', async () => {
    const reference = await startReferenceServer()
    try {
      const proxy = await startTestProxy(reference.url, { redactor: new SecretScrubber({ personal: true }) })
      const read = await request(`${proxy.proxy.url}/profile`, {
        headers: { authorization: `Bearer ${reference.tokens.token}`, accept: media('Profile') },
      })
      const profile = JSON.parse(read.body.toString()) as { name: string }
      const [entry] = await proxy.stop()
      expect(entry?._findings.map((f) => f.kind)).toEqual(['unknown-endpoint'])
      const recorded = JSON.parse(entry?.response.content.text ?? '{}') as { name: string }
      expect(recorded.name).not.toBe(profile.name)
      expect(JSON.stringify(entry)).not.toContain(profile.name)
    } finally {
      await reference.close()
    }
  })
})
