import { evaluateExpression, type Scope } from './evaluate-expression.js'

/** `$$` (a literal `$`) or a `${expression}` placeholder, read left to right. */
const TOKEN = /\$\$|\$\{([^}]*)\}/g
const WHOLE = /^\$\{([^}]*)\}$/

export class UndefinedPlaceholderError extends Error {
  constructor(readonly expression: string) {
    super(`\${${expression}} is undefined`)
    this.name = 'UndefinedPlaceholderError'
  }
}

/**
 * Renders `${expression}` placeholders. A string that is one placeholder keeps the value's type
 * (so `equals: ${createdId}` compares numbers as numbers); placeholders inside text are stringified.
 * `$$` is a literal `$`, so `$${` is a literal `${` (src/shared/literal-text.ts writes data that way).
 * Returns new values; the loaded scenario is never mutated.
 */
export function renderTemplate(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return renderString(value, scope)
  if (Array.isArray(value)) return value.map((element) => renderTemplate(element, scope))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, renderTemplate(element, scope)]))
  }
  return value
}

function renderString(text: string, scope: Scope): unknown {
  const whole = WHOLE.exec(text)
  if (whole) return valueOf(whole[1] as string, scope)
  return text.replace(TOKEN, (token, expression: string | undefined) => {
    if (expression === undefined) return '$'
    const value = valueOf(expression, scope)
    return typeof value === 'string' ? value : JSON.stringify(value)
  })
}

function valueOf(expression: string, scope: Scope): unknown {
  const value = evaluateExpression(expression, scope)
  if (value === undefined) throw new UndefinedPlaceholderError(expression.trim())
  return value
}

/** Every `${...}` expression inside a value, for load-time syntax checks (`$${` is no placeholder). */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string')
    return [...value.matchAll(TOKEN)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]))
  if (Array.isArray(value)) return value.flatMap(placeholdersIn)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(placeholdersIn)
  return []
}
