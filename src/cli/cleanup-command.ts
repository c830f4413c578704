import { ConformanceError, toDiagnostic } from '../model/diagnostic.js'
import { createHttpClient } from '../execute/http-client.js'
import { createRedactor } from '../execute/redact.js'
import { ledgerFiles, openLedger, readOpenWork } from '../execute/ledger.js'
import { DEFAULT_CONFIG_VALUES, type RunContext } from '../execute/run-context.js'
import { undoOpenWork } from '../execute/undo.js'
import { formatDiagnostic } from '../report/format-diagnostic.js'
import type { Screen } from '../report/reporter.js'
import { EXIT } from '../shared/exit-codes.js'
import { resolveRunOptions, type RunFlags } from './run-options.js'
import { processScreen } from './screen.js'

/**
 * `fitconform cleanup`: finishes what a killed run left open, from the ledgers in --output-dir.
 * Trusts nothing in a ledger file: it acts only on URLs under the --base-url the user gives, only on
 * activities a read proves carry that run's marker, and reports what it refused.
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
  const baseUrl = options.baseUrl
  if (!baseUrl) {
    // A ledger is a file anyone could have edited: the server it names is shown, never trusted.
    const named = [...new Set(open.map((work) => work.run?.target ?? 'no server recorded'))]
    screen.err(redact(`fitconform cleanup needs --base-url: the server whose account to clean up. The open ledgers name ${named.join(', ')}; pass it as --base-url if that is the server you mean.\n`))
    return EXIT.usage
  }
  let failed = false
  for (const work of open) {
    const client = createHttpClient({ timeoutMs: options.timeoutMs, insecure: options.insecure, ...(options.ca ? { ca: options.ca } : {}) })
    const ledger = openLedger(work.file, redact)
    const context: RunContext = {
      baseUrl,
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
      for (const item of outcome.notProvenOurs) screen.err(redact(`  refused (not proven ours, nothing sent): ${item.url}: ${item.reason}\n`))
      for (const item of outcome.leftBehind) screen.err(redact(`  left behind: ${item.url}: ${item.reason}\n`))
      for (const item of outcome.found) screen.err(redact(`  found by the run marker and deleted: ${item.url}: ${item.reason}\n`))
      for (const problem of outcome.problems) screen.err(redact(`  ${problem}\n`))
      screen.out(
        redact(`${work.file}: deleted ${outcome.deleted} of ${work.toDelete.length}, restored ${outcome.restored} of ${work.toRestore.length}, ${outcome.swept} more found by the run marker and deleted, ${outcome.notProvenOurs.length} refused as not proven ours, ${outcome.leftBehind.length} left behind\n`),
      )
      const clean = outcome.problems.length === 0 && outcome.notProvenOurs.length === 0 && outcome.leftBehind.length === 0
      if (clean) ledger.record({ type: 'closed' })
      else failed = true
    } finally {
      await client.close()
    }
  }
  return failed ? EXIT.failed : EXIT.ok
}
