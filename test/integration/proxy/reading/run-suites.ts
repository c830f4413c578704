// Runs scenario files against a reference server (directly or through a proxy), with its five demo tokens.
import { expect } from 'vitest'
import type { RunningReferenceServer } from '../../../../reference-server/index.js'
import { loadSuites } from '../../../../src/load/load-suites.js'
import type { ConformanceTarget } from '../../../../src/session/run-session.js'
import { demoTokensFor, ranResult, runLoaded, targetOf } from '../../../helpers/run-fixture.js'

/** The server's five demo tokens, sent to `baseUrl` (the server itself or a proxy in front of it). */
export function demoTarget(server: RunningReferenceServer, baseUrl: string): ConformanceTarget {
  return targetOf(baseUrl, demoTokensFor(server.tokens), 'reference')
}

export async function runSuites(paths: readonly string[], target: ConformanceTarget) {
  const loaded = await loadSuites(paths)
  expect(loaded.diagnostics).toEqual([])
  return ranResult(await runLoaded(loaded, target))
}
