/**
 * What the proxy says when recording goes wrong while it serves: Diagnostics (stable codes, a hint),
 * formatted as the runner formats its own, one text per problem for `printProblem`.
 */
import type { Diagnostic } from '../../src/model/diagnostic.js'
import { formatDiagnostic } from '../../src/report/text/format-diagnostic.js'
import type { SecretScrubber } from './redaction.js'

/** A problem as printed: `error[E_CODE]: …` and `= hint: …`, no colours (it may go to a file). */
export function problemText(diagnostic: Diagnostic): string {
  return formatDiagnostic(diagnostic, { colors: false })
}

/** An exchange left out of the recording by a bug of ours; the error's message is scrubbed, it may quote a body. */
export function internalErrorText(id: number, err: unknown, redactor: SecretScrubber): string {
  const { name, message } = err instanceof Error ? err : new Error(String(err))
  return problemText({
    code: 'E_INTERNAL',
    kind: 'internal',
    message: `#${id} internal error while recording: ${name}: ${redactor.scrub(message)}`,
    hint: 'a bug of fitconform, please report it: the exchange was forwarded but is not in the recording',
  })
}
