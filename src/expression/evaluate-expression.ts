import { EXPRESSION_FUNCTIONS, type ExpressionFunction } from './functions.js'
import { parseExpression, type Chain, type PathSegment } from './parse-expression.js'

/** The names an expression can start from: response parts, run and config values, captured variables. */
export type Scope = Readonly<Record<string, unknown>>

/** Evaluates an expression against a scope; a missing key anywhere yields undefined, never an exception. */
export function evaluateExpression(source: string, scope: Scope): unknown {
  for (const chain of parseExpression(source)) {
    const value = evaluateChain(chain, scope)
    if (value !== undefined) return value
  }
  return undefined
}

/**
 * The answer's list that a path maps over with `[*]`, when it is absent or not a list: `body.items` for
 * `body.items[*].uri | lastSegment` on a page without items. Undefined when the path maps over a list, has no
 * `[*]`, starts from a capture (a capture is judged where it was taken), or has `??` alternatives.
 */
export function unlistedWildcard(source: string, scope: Scope): { path: string; value: unknown } | undefined {
  const chains = parseExpression(source)
  const primary = chains.length === 1 ? chains[0]?.primary : undefined
  if (primary?.kind !== 'path' || primary.root !== 'body') return undefined
  const wildcard = primary.segments.findIndex((segment) => segment.kind === 'all')
  if (wildcard < 0) return undefined
  const before = primary.segments.slice(0, wildcard)
  const value = walk(lookup(scope, primary.root), before)
  return Array.isArray(value) ? undefined : { path: primary.root + before.map(segmentText).join(''), value }
}

function segmentText(segment: PathSegment): string {
  return segment.kind === 'key' ? `.${segment.name}` : segment.kind === 'index' ? `[${segment.index}]` : '[*]'
}

function evaluateChain(chain: Chain, scope: Scope): unknown {
  const { primary } = chain
  let value = primary.kind === 'literal' ? primary.value : walk(lookup(scope, primary.root), primary.segments)
  for (const call of chain.calls) {
    const fn = EXPRESSION_FUNCTIONS[call.name]
    if (!fn) value = undefined
    else if (Array.isArray(value) && !fn.onLists)
      value = value.map((element: unknown) => applySafely(fn, element, call.args))
    else value = applySafely(fn, value, call.args)
  }
  return value
}

/** A server's value may be anything (a URI with a bad %-escape, say): a function that cannot use it gives undefined. */
function applySafely(fn: ExpressionFunction, value: unknown, args: readonly (string | number)[]): unknown {
  try {
    return fn.apply(value, args)
  } catch {
    return undefined
  }
}

function lookup(scope: Scope, name: string): unknown {
  return Object.hasOwn(scope, name) ? scope[name] : undefined
}

function walk(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as PathSegment
    if (segment.kind === 'all') {
      if (!Array.isArray(current)) return undefined
      const rest = segments.slice(i + 1)
      return current.map((element: unknown) => walk(element, rest))
    }
    if (segment.kind === 'index') {
      current = Array.isArray(current) ? current[segment.index] : undefined
    } else {
      current =
        typeof current === 'object' &&
        current !== null &&
        !Array.isArray(current) &&
        Object.hasOwn(current, segment.name)
          ? (current as Record<string, unknown>)[segment.name]
          : undefined
    }
    if (current === undefined) return undefined
  }
  return current
}
