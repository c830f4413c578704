// `fitconform diff` between embedded reference servers: two conforming modes differ only in their
// documented open choices (reference-server/modes.ts); a mutant differs by the rule it breaks.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSuites } from '../../../src/load/load-suites.js'
import { packageRoot } from '../../../src/shared/package-root.js'
import { parseGrep } from '../../../src/plan/grep-filter.js'
import { runDiff, type DiffOutcome } from '../../../src/diff/run-diff.js'
import { extensionGroups } from '../../../src/diff/report/diff-groups.js'
import type { DiffResult } from '../../../src/diff/diff-result.js'
import { behaviourOf, type ModeBehaviour } from '../../../reference-server/modes.js'
import {
  mutants,
  startReferenceServer,
  type RunningReferenceServer,
  type ServerMode,
} from '../../../reference-server/index.js'
import type { ConformanceTarget } from '../../../src/session/run-session.js'
import { demoTokensFor, targetOf, TEST_RUN_SETTINGS } from '../../helpers/run-fixture.js'

/** Where each documented choice of modes.ts shows in a diff (undefined: matched by role, never a difference). */
const KIND_OF_CHOICE: Record<keyof ModeBehaviour, readonly string[] | undefined> = {
  feedOrder: ['feed-order'],
  idStyle: ['identifier-format'],
  userIdBase: undefined,
  missingAuthorizationStatus: ['error-status'],
  foreignActivity: ['error-status'],
  deletedActivityStatus: ['error-status'],
  invalidBodyStatus: ['error-status'],
  strictContentType: ['request-media-type'],
  editableActivityFields: ['editable-activity-fields'],
  editableProfileFields: ['editable-profile-fields'],
  previousLinkStyle: ['previous-link-form'],
  scopedWindow: ['scoped-window'],
  liveUpdates: ['live-finish'],
  chunked: ['message-framing'],
  extraHeaders: [],
  quirks: ['feed-irregularities', 'delete-health-text', 'media-type-parameters'],
  errorBodies: ['error-body'],
  history: undefined,
}

function documentedKinds(a: ServerMode, b: ServerMode): Set<string> {
  const [left, right] = [behaviourOf(a), behaviourOf(b)]
  const fields = (Object.keys(left) as (keyof ModeBehaviour)[]).filter(
    (field) => JSON.stringify(left[field]) !== JSON.stringify(right[field]),
  )
  return new Set(fields.flatMap((field) => KIND_OF_CHOICE[field] ?? []))
}

async function diffOf(
  newSide: { mode: ServerMode; mutant?: string },
  referenceMode: ServerMode,
  grep?: string,
): Promise<DiffResult> {
  const servers: RunningReferenceServer[] = [
    await startReferenceServer(newSide),
    await startReferenceServer({ mode: referenceMode }),
  ]
  try {
    const loaded = await loadSuites([`${packageRoot()}/suites`])
    const [targetNew, targetReference] = servers.map((server) =>
      targetOf(server.url, demoTokensFor(server.tokens), server.mode),
    ) as [ConformanceTarget, ConformanceTarget]
    const outcome: DiffOutcome = await runDiff(loaded.scenarios, loaded.rules, {
      new: targetNew,
      reference: targetReference,
      shared: { ...TEST_RUN_SETTINGS, filter: { readOnly: false, ...(grep ? { grep: parseGrep(grep) } : {}) } },
    })
    if (outcome.kind !== 'diffed') throw new Error(`diff did not run: ${outcome.kind}`)
    return outcome.result
  } finally {
    for (const server of servers) await server.close()
  }
}

const classes = (result: DiffResult): Set<string> =>
  new Set(result.steps.flatMap((step) => step.differences.map((d) => d.class)))
const spec = readFileSync(join(packageRoot(), 'docs/spec/fitness-data-service.md'), 'utf8').replace(/\s+/g, ' ')

// Each diff starts its own two servers, and most of a run is waiting on their one-second dates: the
// diffs of this file run at the same time.
describe.concurrent('diff of two conforming modes', () => {
  it('reference against other-choices: exactly their documented open choices, and the extra headers as extensions', async () => {
    const result = await diffOf({ mode: 'reference' }, 'other-choices')
    const kinds = result.openChoices.map((choice) => choice.kind).sort()
    expect(kinds).toEqual([
      'error-body',
      'error-status',
      'feed-order',
      'identifier-format',
      'message-framing',
      'previous-link-form',
      'scoped-window',
    ])
    for (const kind of kinds) expect(documentedKinds('reference', 'other-choices')).toContain(kind)
    for (const choice of result.openChoices) expect(spec).toContain(choice.quote.replace(/\s+/g, ' '))
    expect(classes(result)).toEqual(new Set(['open-choice', 'extension']))
    expect(result.rules).toEqual([])
    expect(extensionGroups(result).map((e) => `${e.side} ${e.place}`)).toEqual([
      'reference headers.cache-control',
      'reference headers.etag',
      'reference headers.x-request-id',
    ])
  }, 120_000)

  it('reference against quirky: the §2.2 and §7 irregularities and the id form, the extra fields as extensions', async () => {
    const result = await diffOf({ mode: 'reference' }, 'quirky')
    const kinds = result.openChoices.map((choice) => choice.kind).sort()
    expect(kinds).toEqual(['delete-health-text', 'feed-irregularities', 'identifier-format', 'media-type-parameters'])
    for (const kind of kinds) expect(documentedKinds('reference', 'quirky')).toContain(kind)
    expect(classes(result)).toEqual(new Set(['open-choice', 'extension']))
    expect(new Set(extensionGroups(result).map((e) => e.place.split('.').at(-1)))).toEqual(
      new Set(['x_server_build', 'x_shard']),
    )
  }, 120_000)
})

describe.concurrent('diff of a mutant against the reference', () => {
  const mutant = mutants.find((m) => m.name === 'no-last-modified-on-read')!

  it("shows a conformance difference on the mutant's rule, and blames nothing else", async () => {
    // The activity scenarios read activities (and so judge Last-Modified) and those reads' rules: enough to see the
    // blame, in a fifth of the time.
    const result = await diffOf({ mode: 'reference', mutant: mutant.name }, 'reference', '^activity-')
    expect(result.summary.conformance).toBe(1)
    expect(result.rules.find((rule) => rule.rule === mutant.rule)).toMatchObject({ new: 'failed', reference: 'passed' })
    const conformance = result.steps.flatMap((step) => step.differences.filter((d) => d.class === 'conformance'))
    expect(conformance.length).toBeGreaterThan(0)
    expect(new Set(conformance.map((d) => d.kind))).toEqual(new Set([mutant.rule]))
    expect(result.openChoices).toEqual([])
    expect(classes(result)).toEqual(new Set(['conformance']))
  }, 120_000)
})
