/** Small constructors for findings, and the mapping from schema problems (src/validation) to findings. */
import type { Finding, FindingKind } from '../../src/model/exchange.js'
import type { SchemaProblem } from '../../src/validation/schema-registry.js'

export function finding(kind: FindingKind, side: 'request' | 'response', rule: string | undefined, message: string, pointer?: string): Finding {
  return { kind, side, ...(rule === undefined ? {} : { rule }), ...(pointer === undefined ? {} : { pointer }), message }
}

/** Schema problems of a body: error → violation, irregularity (§2.2) → irregularity, warning → note. */
export function fromSchemaProblems(problems: readonly SchemaProblem[], side: 'request' | 'response', fallbackRule?: string): Finding[] {
  return problems.map((problem) => {
    const kind: FindingKind = problem.severity === 'error' ? 'violation' : problem.severity === 'irregularity' ? 'irregularity' : 'note'
    const rule = problem.rule === '' ? fallbackRule : problem.rule
    return finding(kind, side, rule, problem.message, problem.pointer)
  })
}

/** `--strict`: the documented irregularities of §2.2 fail like violations. */
export function applyStrict(findings: readonly Finding[]): Finding[] {
  return findings.map((f) => (f.kind === 'irregularity' ? { ...f, kind: 'violation', message: `${f.message} (an irregularity of §2.2, failed by --strict)` } : f))
}
