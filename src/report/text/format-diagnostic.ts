import type { Diagnostic, SourceRef } from '../../model/diagnostic.js'
import type { AssertionResult } from '../../model/result.js'
import type { Rule } from '../../model/scenario.js'
import { createStyler, type Styler } from './text-style.js'
import { formatValue } from '../../shared/format-value.js'
import { isRecord } from '../../shared/is-record.js'
import { diffValues } from './values.js'
import { parseJsonPath, valueAtPath } from '../../shared/json-path.js'

/** Rule id → rule, from the catalogue the plan carries (`RunPlanView.rules`). */
export type RuleIndex = ReadonlyMap<string, Rule>

export function indexRules(rules: readonly Rule[]): RuleIndex {
  return new Map(rules.map((rule) => [rule.id, rule]))
}

export interface FormatOptions {
  readonly colors: boolean
  readonly rules?: RuleIndex
}

/**
 * hurl's layout without the code frame (reporters have no file text):
 *
 *   error[E_TIMEOUT]: no response within 5000ms
 *     --> suites/feed/read-feed.yaml:12:7
 *      = hint: raise --timeout
 */
export function formatDiagnostic(diagnostic: Diagnostic, options: FormatOptions): string {
  const style = createStyler(options.colors)
  const lines = [headerLine('error', diagnostic.code, diagnostic.message, style)]
  if (diagnostic.at) lines.push(locationLine(diagnostic.at, style))
  for (const detail of diagnostic.details ?? []) lines.push(noteLine(detail, style))
  if (diagnostic.hint) lines.push(noteLine(`hint: ${diagnostic.hint}`, style))
  return lines.join('\n')
}

export interface AssertionFormatOptions extends FormatOptions {
  /** The scenario's rules, named when the assertion has none of its own. */
  readonly fallbackRules?: readonly string[]
  /** The step's response body: shows the value a schema error points at. */
  readonly responseBody?: unknown
}

/**
 * A failed check, with the rule it tests and what was expected against what came back:
 *
 *   error[E_CHECK_FAILED]: body.items has 25 elements, expected 4
 *     --> suites/feed/page-size.yaml:14:15
 *      = rule <rule id> (§4 rule 2): "When the pageSize parameter is given, …"
 *      = expected: length 4
 *      = actual:   25
 */
export function formatAssertion(assertion: AssertionResult, options: AssertionFormatOptions): string {
  const style = createStyler(options.colors)
  const level = assertion.severity === 'warning' ? 'warning' : 'error'
  const lines = [headerLine(level, 'E_CHECK_FAILED', assertion.message, style)]
  if (assertion.at) lines.push(locationLine(assertion.at, style))
  const ruleIds = assertion.rules.length > 0 ? assertion.rules : (options.fallbackRules ?? [])
  for (const id of ruleIds) lines.push(noteLine(describeRule(id, options.rules), style))
  if (assertion.irregularity) {
    lines.push(noteLine('documented irregularity (§2.2): a warning here, a failure under --strict', style))
  }
  for (const line of comparisonLines(assertion, options.responseBody)) lines.push(noteLine(line, style))
  return lines.join('\n')
}

/** `rule <id> (§4 rule 2): "quote"`; the bare id when the catalogue does not know it. */
export function describeRule(id: string, rules: RuleIndex | undefined): string {
  const rule = rules?.get(id)
  return rule ? `rule ${id} (${rule.section}): "${rule.quote}"` : `rule ${id}`
}

function comparisonLines(assertion: AssertionResult, responseBody: unknown): string[] {
  const { matcher, expected, actual, target } = assertion
  const lines: string[] = []
  if (!assertion.message.includes(target)) lines.push(`checked: ${target}`)
  if (matcher === 'schema') {
    // Schema problems carry no actual value: the message says what is wrong, the body shows the value.
    if (expected !== undefined) lines.push(`expected: a valid ${String(expected)} at ${target}`)
    if (Array.isArray(actual)) return [...lines, ...actual.map((problem) => String(problem))]
    const found = actual === undefined ? valueAtTarget(responseBody, target) : { value: actual }
    if (found) lines.push(`actual:   ${formatValue(found.value)}`)
    return lines
  }
  lines.push(`expected: ${describeExpected(matcher, expected)}`)
  lines.push(`actual:   ${formatValue(actual)}`)
  if (isStructured(expected) && isStructured(actual)) {
    const ignoreExtraKeys = matcher === 'like' || matcher === 'contains'
    for (const difference of diffValues(expected, actual, { ignoreExtraKeys })) lines.push(`diff ${difference}`)
  }
  return lines
}

/** `body.items[3].has_map` in the response body; undefined when the path is not there. */
export function valueAtTarget(body: unknown, target: string): { readonly value: unknown } | undefined {
  if (body === undefined || !/^body(?=$|[.[])/.test(target)) return undefined
  const path = target.slice('body'.length)
  // parseJsonPath refuses a path of dots and brackets alone: that is the body itself.
  if (!/[^.[\]]/.test(path)) return { value: body }
  return { value: valueAtPath(body, parseJsonPath(path)) }
}

function describeExpected(matcher: string, expected: unknown): string {
  if (matcher === 'equals' || matcher === '') return formatValue(expected)
  if (expected === true) return matcher
  if (expected === undefined) return matcher
  return `${matcher} ${formatValue(expected)}`
}

function isStructured(value: unknown): boolean {
  return Array.isArray(value) || isRecord(value)
}

function headerLine(level: 'error' | 'warning', code: string, message: string, style: Styler): string {
  const label =
    level === 'error' ? style.red(style.bold(`error[${code}]`)) : style.yellow(style.bold(`warning[${code}]`))
  return `${label}: ${oneLine(message)}`
}

function locationLine(at: SourceRef, style: Styler): string {
  return `  ${style.cyan('-->')} ${formatSourceRef(at)}`
}

function noteLine(text: string, style: Styler): string {
  const [first = '', ...rest] = text.split('\n')
  return [`   ${style.cyan('=')} ${first}`, ...rest.map((line) => `     ${line}`)].join('\n')
}

function oneLine(message: string): string {
  return message.split('\n').join(' ')
}

function formatSourceRef(at: SourceRef): string {
  return `${at.file}:${at.line}:${at.column}`
}
