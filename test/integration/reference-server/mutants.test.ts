// The mutant switch: catalogue integrity, and for every mutant its defining misbehaviour asserted
// directly with requests (mutant-probes.ts): the probe sees it on the mutant and not on the
// reference server, each on a fresh server with a test clock.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { mutants, startReferenceServer, type ServerMode } from '../../../reference-server/index.js'
import type { MutantName } from '../../../reference-server/faults/mutants.js'
import { createTestClock } from './helpers.js'
import { ProbeServer, probes } from './mutant-probes.js'

interface CatalogueRule {
  id: string
  section: string
  appliesTo: string
}

async function withProbeServer<T>(
  mutant: string | undefined,
  run: (server: ProbeServer) => Promise<T>,
  mode?: ServerMode,
): Promise<T> {
  const clock = createTestClock()
  // A mutant whose fault lives in years of history is probed, and compared, in the mode that has them.
  const running = await startReferenceServer({
    now: clock.now,
    onInternalError: () => undefined,
    ...(mutant ? { mutant } : {}),
    ...(mode ? { mode } : {}),
  })
  try {
    expect(running.mutant).toBe(mutant)
    return await run(new ProbeServer(running, clock))
  } finally {
    await running.close()
  }
}

describe('the mutant catalogue', () => {
  it('names server rules of suites/rules.yaml, one mutant name each, and describes each in one line', async () => {
    const catalogue = parse(await readFile(new URL('../../../suites/rules.yaml', import.meta.url), 'utf8')) as {
      rules: CatalogueRule[]
    }
    const serverRules = new Set(catalogue.rules.filter((rule) => rule.appliesTo === 'server').map((rule) => rule.id))
    expect(mutants.length).toBeGreaterThanOrEqual(55)
    for (const mutant of mutants) {
      expect(serverRules.has(mutant.rule), `${mutant.name}: ${mutant.rule}`).toBe(true)
      expect(mutant.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(mutant.description.length).toBeGreaterThan(10)
      expect(mutant.description).not.toContain('\n')
    }
    expect(new Set(mutants.map((mutant) => mutant.name)).size).toBe(mutants.length)
  })

  it('spreads over every section of the spec that has server rules', async () => {
    const catalogue = parse(await readFile(new URL('../../../suites/rules.yaml', import.meta.url), 'utf8')) as {
      rules: CatalogueRule[]
    }
    const sectionOf = new Map(catalogue.rules.map((rule) => [rule.id, rule.section.replace(/^(§\d+(\.\d+)?).*/, '$1')]))
    const serverSections = new Set(
      catalogue.rules
        .filter((rule) => rule.appliesTo === 'server' && !rule.id.startsWith('IRREG-'))
        .map((rule) => sectionOf.get(rule.id)),
    )
    const covered = new Set(mutants.map((mutant) => sectionOf.get(mutant.rule)))
    expect([...serverSections].filter((section) => !covered.has(section))).toEqual([])
  })

  it('refuses an unknown mutant, naming the known ones', async () => {
    await expect(startReferenceServer({ mutant: 'no-such-mutant' })).rejects.toThrow(
      /unknown mutant "no-such-mutant".*has-map-boolean/,
    )
  })

  it('has a probe for every mutant', () => {
    expect(Object.keys(probes).sort()).toEqual(mutants.map((mutant) => mutant.name).sort())
  })
})

describe.each(mutants.map((mutant) => ({ name: mutant.name as MutantName, rule: mutant.rule, mode: mutant.mode })))(
  'mutant $name ($rule)',
  ({ name, mode }) => {
    const probe = probes[name]
    it('shows its misbehaviour', async () => {
      expect(await withProbeServer(name, probe, mode)).toBe(true)
    })
    it('the reference server does not', async () => {
      expect(await withProbeServer(undefined, probe, mode)).toBe(false)
    })
  },
)
