import { ConformanceError, toDiagnostic } from '../model/diagnostic.js'
import { cleanUpLedger } from '../execute/safety/clean-up-ledger.js'
import { createRedactor } from '../execute/finalize/redact.js'
import { ledgerFiles, readOpenWork } from '../execute/safety/ledger.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import type { Screen } from '../model/reporter.js'
import { EXIT } from '../shared/exit-codes.js'
import { resolveRunOptions, type RunFlags } from './options/run-options.js'
import { processScreen } from '../api/screen.js'

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
  const open = ledgerFiles(options.outputDir)
    .map(readOpenWork)
    .filter((work) => !work.closed)
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
    screen.err(
      redact(
        `fitconform cleanup needs --base-url: the server whose account to clean up. The open ledgers name ${named.join(', ')}; pass it as --base-url if that is the server you mean.\n`,
      ),
    )
    return EXIT.usage
  }
  let failed = false
  for (const work of open) {
    const { outcome, clean } = await cleanUpLedger(work, {
      baseUrl,
      tokens: options.tokens,
      timeoutMs: options.timeoutMs,
      insecure: options.insecure,
      ca: options.ca,
      redact,
    })
    // A ledger is evidence, never authority: a line that is not of the run's own shapes is listed, and fails the cleanup.
    for (const line of work.refusedLines) screen.err(redact(`  refused ledger line (nothing done for it): ${line}\n`))
    for (const item of outcome.notProvenOurs)
      screen.err(redact(`  refused (not proven ours, nothing sent): ${item.url}: ${item.reason}\n`))
    for (const item of outcome.leftBehind) screen.err(redact(`  left behind: ${item.url}: ${item.reason}\n`))
    for (const item of outcome.found)
      screen.err(redact(`  found by the run marker and deleted: ${item.url}: ${item.reason}\n`))
    for (const problem of outcome.problems) screen.err(redact(`  ${problem}\n`))
    screen.out(
      redact(
        `${work.file}: deleted ${outcome.deleted} of ${work.toDelete.length}, restored ${outcome.restored} of ${work.toRestore.length}, ${outcome.swept} more found by the run marker and deleted, ${outcome.notProvenOurs.length} refused as not proven ours, ${outcome.leftBehind.length} left behind${work.refusedLines.length > 0 ? `, ${work.refusedLines.length} ledger line(s) refused` : ''}\n`,
      ),
    )
    if (!clean) failed = true
  }
  return failed ? EXIT.failed : EXIT.ok
}
