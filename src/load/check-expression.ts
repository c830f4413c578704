import type { Diagnostic, SourceRef } from '../model/diagnostic.js'
import { EXPRESSION_FUNCTIONS } from '../expression/functions.js'
import { ExpressionSyntaxError, parseExpression } from '../expression/parse-expression.js'
import { placeholdersIn } from '../expression/render-template.js'
import { didYouMean } from './did-you-mean.js'

/** Names every expression may start from; the rest must be captured by an earlier step. */
export const BUILTIN_ROOTS = ['status', 'headers', 'body', 'bodyText', 'bodyBytes', 'url', 'run', 'config'] as const

/** Checks one expression at load time: syntax, function names and arity, and that its variable exists by then. */
export function checkExpression(source: string, at: SourceRef, variables: ReadonlySet<string>): Diagnostic[] {
  let parsed
  try {
    parsed = parseExpression(source)
  } catch (error) {
    if (!(error instanceof ExpressionSyntaxError)) throw error
    return [
      {
        code: 'E_BAD_EXPRESSION',
        kind: 'load',
        message: `cannot read the expression "${source}": ${error.message} (at character ${error.offset + 1})`,
        at,
      },
    ]
  }
  const problems: Diagnostic[] = []
  for (const chain of parsed) {
    if (chain.primary.kind === 'path') {
      const root = chain.primary.root
      if (!(BUILTIN_ROOTS as readonly string[]).includes(root) && !variables.has(root)) {
        const suggestion = didYouMean(root, [...BUILTIN_ROOTS, ...variables])
        problems.push({
          code: 'E_TEMPLATE_UNDEFINED',
          kind: 'load',
          message: `"${root}" is not defined here: capture it in an earlier step, or use one of ${BUILTIN_ROOTS.join(', ')}`,
          at,
          hint: suggestion === undefined ? undefined : `did you mean "${suggestion}"?`,
        })
      }
    }
    for (const call of chain.calls) {
      const fn = EXPRESSION_FUNCTIONS[call.name]
      if (!fn) {
        const suggestion = didYouMean(call.name, Object.keys(EXPRESSION_FUNCTIONS))
        problems.push({
          code: 'E_BAD_EXPRESSION',
          kind: 'load',
          message: `unknown function "${call.name}" in "${source}"`,
          at,
          hint: suggestion
            ? `did you mean "${suggestion}"?`
            : `known functions: ${Object.keys(EXPRESSION_FUNCTIONS).join(', ')}`,
        })
      } else if (call.args.length < fn.arity[0] || call.args.length > fn.arity[1]) {
        const [min, max] = fn.arity
        problems.push({
          code: 'E_BAD_EXPRESSION',
          kind: 'load',
          message: `${call.name} takes ${min === max ? min : `${min} to ${max}`} argument(s), not ${call.args.length}, in "${source}"`,
          at,
        })
      }
    }
  }
  return problems
}

/** Checks every `${...}` placeholder inside a value (request fields, expected values). */
export function checkTemplates(value: unknown, at: SourceRef, variables: ReadonlySet<string>): Diagnostic[] {
  return placeholdersIn(value).flatMap((expression) => checkExpression(expression, at, variables))
}
