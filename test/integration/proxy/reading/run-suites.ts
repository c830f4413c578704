// Runs scenario files against a reference server (directly or through a proxy), with its five demo tokens.
import { expect } from 'vitest'
import type { RunningReferenceServer } from '../../../../reference-server/index.js'
import { loadSuites } from '../../../../src/load/load-suites.js'
import { runConformance } from '../../../../src/execute/run-conformance.js'
import type { ConformanceTarget } from '../../../../src/session/run-session.js'

export function targetOf(server: RunningReferenceServer, baseUrl: string): ConformanceTarget {
  const { tokens } = server
  return {
    baseUrl: new URL(baseUrl),
    label: 'reference',
    tokens: {
      token: tokens.token,
      'other-token': tokens.otherToken,
      'revoked-token': tokens.revokedToken,
      'revoked-delete-token': tokens.revokedDeleteToken,
      'limited-token': tokens.limitedToken,
    },
  }
}

export async function runSuites(paths: readonly string[], target: ConformanceTarget) {
  const loaded = await loadSuites(paths)
  expect(loaded.diagnostics).toEqual([])
  const outcome = await runConformance(
    loaded.scenarios,
    loaded.rules,
    {
      target,
      filter: { readOnly: false },
      strict: false,
      concurrency: 4,
      timeoutMs: 5000,
      bail: false,
      insecure: false,
      configValues: {},
    },
    {},
  )
  if (outcome.kind !== 'ran')
    throw new Error(outcome.kind === 'unreachable' ? outcome.diagnostic.message : 'no scenario selected')
  return outcome.result
}
