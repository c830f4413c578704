// `fitconform diff --recording`: the default suite's traffic, recorded through the proxy in front of one
// conforming mode, replayed against another. Only reads, and writes to what the replay created, are sent.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { packageRoot } from '../../../src/shared/package-root.js'
import { replayRecording, type ReplayOutcome } from '../../../src/diff/replay-recording.js'
import { writeDiffReports } from '../../../src/diff/report/write-diff-reports.js'
import { demoTokensFor, runFixture, targetOf, TEST_RUN_SETTINGS } from '../../helpers/run-fixture.js'
import { makeTempDir } from '../../helpers/temp-dir.js'
import { startTestProxy } from '../proxy/helpers.js'

describe('diff --recording of the default suite', () => {
  let recorded: RunningReferenceServer
  let replayedOn: RunningReferenceServer
  let recording: string
  let outcome: ReplayOutcome
  /** Every write the new server received, as `METHOD path`. */
  const writes: string[] = []

  beforeAll(async () => {
    recorded = await startReferenceServer({ mode: 'other-choices' })
    const proxy = await startTestProxy(recorded.url)
    const run = await runFixture(
      join(packageRoot(), 'suites'),
      targetOf(proxy.proxy.url, demoTokensFor(recorded.tokens), recorded.mode),
    )
    expect(run.kind).toBe('ran')
    await proxy.stop()
    recording = proxy.file
    replayedOn = await startReferenceServer({ mode: 'reference' })
    const spy = await startTestProxy(replayedOn.url)
    outcome = await replayRecording(recording, {
      new: targetOf(spy.proxy.url, demoTokensFor(replayedOn.tokens, ['token', 'other-token']), replayedOn.mode),
      shared: TEST_RUN_SETTINGS,
    })
    for (const entry of await spy.stop())
      if (entry.request.method !== 'GET' && entry.request.method !== 'HEAD')
        writes.push(`${entry.request.method} ${new URL(entry.request.url).pathname}`)
  }, 180_000)

  afterAll(async () => {
    await recorded?.close()
    await replayedOn?.close()
  })

  it("lists the two modes' open choices, and no conformance difference (a recording judges nothing)", () => {
    if (outcome.kind !== 'diffed') throw new Error(outcome.kind)
    const kinds = outcome.result.openChoices.map((choice) => choice.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['identifier-format', 'error-status', 'message-framing', 'previous-link-form']),
    )
    // Every kind is one of the documented choices between other-choices and reference (modes.ts); nothing is left unexplained.
    for (const kind of kinds)
      expect([
        'identifier-format',
        'error-status',
        'error-body',
        'message-framing',
        'previous-link-form',
        'feed-order',
        'scoped-window',
      ]).toContain(kind)
    expect(outcome.result.steps.flatMap((step) => step.differences).filter((d) => d.class === 'conformance')).toEqual(
      [],
    )
    expect(outcome.result.mode).toBe('recording')
  })

  it('says what it did not replay and why: writes to what the replay did not create, a third token', () => {
    if (outcome.kind !== 'diffed') throw new Error(outcome.kind)
    const reasons = outcome.result.skipped.map((skipped) => `${skipped.request.split(' ')[0]} ${skipped.reason}`)
    expect(reasons.some((reason) => reason.startsWith('PUT') && reason.includes('did not create'))).toBe(true)
    expect(reasons.some((reason) => reason.includes('third token'))).toBe(true)
    for (const skipped of outcome.result.skipped) expect(skipped.at).toMatch(/recording\.ndjson:\d+$/)
  })

  it('sends writes only to the feed (creates) and to what its own creates made, and deletes all it made', () => {
    if (outcome.kind !== 'diffed') throw new Error(outcome.kind)
    const createdPaths = new Set<string>()
    for (const write of writes) {
      const [method, path] = write.split(' ') as [string, string]
      if (method === 'POST' && path === '/fitnessActivities') continue
      expect(path).not.toBe('/profile')
      createdPaths.add(path)
    }
    expect(createdPaths.size).toBeGreaterThan(0)
    expect(outcome.cleanup?.created).toBe(outcome.cleanup?.deleted)
    expect(outcome.cleanup?.openLedger).toBeUndefined()
  })

  it('writes no token of either side into its reports', async () => {
    if (outcome.kind !== 'diffed') throw new Error(outcome.kind)
    const dir = makeTempDir('fitconform-diff-')
    const files = await writeDiffReports(outcome.result, [{ name: 'json' }, { name: 'markdown' }, { name: 'html' }], {
      outputDir: dir,
      screen: { out: () => undefined, err: () => undefined, colors: false, isTTY: false, width: 80 },
    })
    const recordedText = readFileSync(recording, 'utf8')
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const token of Object.values(replayedOn.tokens)) expect(text).not.toContain(token)
      expect(recordedText).not.toContain(replayedOn.tokens.token)
    }
  })
})
