import { ConformanceError, toDiagnostic } from '../model/diagnostic.js'
import { createHttpClient } from '../execute/http-client.js'
import { createRedactor } from '../execute/redact.js'
import { ledgerFiles, openLedger, readOpenWork } from '../execute/ledger.js'
import { DEFAULT_CONFIG_VALUES, type RunContext } from '../execute/run-context.js'
import { undoOpenWork } from '../execute/undo.js'
import { formatDiagnostic } from '../report/format-diagnostic.js'
import type { Screen } from '../report/reporter.js'
import { EXIT } from './exit-codes.js'
import { resolveRunOptions, type RunFlags } from './run-options.js'
import { processScreen } from './screen.js'

/**
 * `fitconform cleanup`: finishes what a killed run left open, from the ledgers in --output-dir.
 * It acts only on what a ledger names, plus activities carrying that run's own marker.
 */
export async function cleanupCommand(flags: RunFlags, screen: Screen = processScreen()): Promise<number> {
  let options
  try {
    options = resolveRunOptions(flags)
  } catch (error) {
    screen.err(formatDiagnostic(toDiagnostic(error), { colors: screen.colors }) + '\n')
    return error instanceof ConformanceError ? EXIT.usage : EXIT.failed
  }
  const open = ledgerFiles(options.outputDir).map(readOpenWork).filter((work) => !work.closed)
  if (open.length === 0) {
    screen.out(`Nothing to clean up: no open ledger in ${options.outputDir}\n`)
    return EXIT.ok
  }
  const secrets = new Map(Object.entries(options.tokens).map(([role, token]) => [token, role]))
  const redact = createRedactor(secrets)
  let failed = false
  for (const work of open) {
    const target = options.baseUrl ?? (work.run ? new URL(work.run.target) : undefined)
    if (!target) {
      screen.err(`${work.file}: no target recorded; pass --base-url\n`)
      failed = true
      continue
    }
    if (work.run && options.baseUrl && new URL(work.run.target).origin !== options.baseUrl.origin) {
      screen.err(`${work.file} belongs to ${work.run.target}, not ${options.baseUrl}; skipped\n`)
      continue
    }
    const client = createHttpClient({ timeoutMs: options.timeoutMs, insecure: options.insecure, ...(options.ca ? { ca: options.ca } : {}) })
    const ledger = openLedger(work.file)
    const context: RunContext = {
      baseUrl: target,
      tokens: options.tokens,
      client,
      timeoutMs: options.timeoutMs,
      strict: false,
      run: { id: work.run?.runId ?? 'unknown', marker: work.run?.marker ?? '', farYear: work.run?.farYear ?? 0, now: Date.now() },
      config: DEFAULT_CONFIG_VALUES,
      redact,
      interrupted: new AbortController().signal,
      ledger,
    }
    try {
      const outcome = await undoOpenWork(work, context)
      for (const problem of outcome.problems) screen.err(redact(`  ${problem}\n`))
      screen.out(`${work.file}: deleted ${outcome.deleted} of ${work.toDelete.length}, restored ${outcome.restored} of ${work.toRestore.length}, ${outcome.swept} more found by the run marker and deleted\n`)
      if (outcome.problems.length === 0) ledger.record({ type: 'closed' })
      else failed = true
    } finally {
      await client.close()
    }
  }
  return failed ? EXIT.failed : EXIT.ok
}
