/** Small constructors for findings, and the mapping from schema problems (src/validation) to findings. */
import type { Finding, FindingKind } from '../../src/model/exchange.js'
import { collapseRepeats, describeRepeated } from '../../src/validation/repeated-problems.js'
import type { SchemaProblem } from '../../src/validation/schema-registry.js'

export function finding(
  kind: FindingKind,
  side: 'request' | 'response',
  rule: string | undefined,
  message: string,
  pointer?: string,
): Finding {
  return { kind, side, rule, pointer, message }
}

/**
 * Schema problems of a body: error → violation, irregularity (§2.2) → irregularity, warning → note.
 * The same problem on many items of an array is one finding that counts them, as the run's reports
 * tell it (`8629 of 8640 items: /path/*\/timestamp must be …`): a long path gives one line, not thousands.
 */
export function fromSchemaProblems(
  problems: readonly SchemaProblem[],
  body: unknown,
  side: 'request' | 'response',
  fallbackRule?: string,
): Finding[] {
  return collapseRepeats(problems, body).map((repeated) => {
    const { problem, count, of } = repeated
    const kind: FindingKind =
      problem.severity === 'error' ? 'violation' : problem.severity === 'irregularity' ? 'irregularity' : 'note'
    const rule = problem.rule === '' ? fallbackRule : problem.rule
    const told = finding(kind, side, rule, describeRepeated(repeated), problem.pointer)
    return count === 1 ? told : { ...told, repeated: { count, of } }
  })
}

/** `--strict`: the documented irregularities of §2.2 fail like violations. */
export function applyStrict(findings: readonly Finding[]): Finding[] {
  return findings.map((f) =>
    f.kind === 'irregularity'
      ? { ...f, kind: 'violation', message: `${f.message} (an irregularity of §2.2, failed by --strict)` }
      : f,
  )
}
