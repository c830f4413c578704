/**
 * The expression language of scenarios (docs/scenario-format.md § Expressions):
 *   expression := chain (' ?? ' chain)*
 *   chain      := primary ('|' call)*
 *   primary    := 'quoted literal' | number | path
 *   path       := name ('.' name | '[' index ']' | '[*]')*
 *   call       := name ('(' argument (',' argument)* ')')?
 * Parsed once at load time so a typo is a load error with a line, never a run-time surprise.
 */
export type PathSegment =
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'all' }

export type Primary =
  | { readonly kind: 'literal'; readonly value: string | number }
  | { readonly kind: 'path'; readonly root: string; readonly segments: readonly PathSegment[] }

export interface FunctionCall {
  readonly name: string
  readonly args: readonly (string | number)[]
}

export interface Chain {
  readonly primary: Primary
  readonly calls: readonly FunctionCall[]
}

/** Alternatives joined by `??`: the first that is not undefined wins. */
export type Expression = readonly Chain[]

export class ExpressionSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message)
    this.name = 'ExpressionSyntaxError'
  }
}

const NAME = /[A-Za-z_$][A-Za-z0-9_$-]*/y
const NUMBER = /-?\d+(\.\d+)?/y
const SPACE = /\s*/y

const cache = new Map<string, Expression>()

/** Parses (and memoises) an expression; throws ExpressionSyntaxError with the offending offset. */
export function parseExpression(source: string): Expression {
  const known = cache.get(source)
  if (known) return known
  const parsed = new Parser(source).expression()
  cache.set(source, parsed)
  return parsed
}

class Parser {
  private position = 0
  constructor(private readonly source: string) {}

  expression(): Expression {
    const chains: Chain[] = [this.chain()]
    while (this.eat('??')) chains.push(this.chain())
    this.skipSpace()
    if (this.position < this.source.length)
      this.fail(`unexpected "${this.source.slice(this.position, this.position + 10)}"`)
    return chains
  }

  private chain(): Chain {
    const primary = this.primary()
    const calls: FunctionCall[] = []
    while (this.peekPipe()) {
      this.eat('|')
      calls.push(this.call())
    }
    return { primary, calls }
  }

  private peekPipe(): boolean {
    this.skipSpace()
    return this.source[this.position] === '|'
  }

  private primary(): Primary {
    this.skipSpace()
    const quote = this.source[this.position]
    if (quote === "'" || quote === '"') return { kind: 'literal', value: this.quoted() }
    const number = this.match(NUMBER)
    if (number !== undefined) return { kind: 'literal', value: Number(number) }
    const root = this.match(NAME)
    if (root === undefined) this.fail('expected a variable, a number or a quoted text')
    return { kind: 'path', root, segments: this.segments() }
  }

  private segments(): PathSegment[] {
    const segments: PathSegment[] = []
    for (;;) {
      if (this.source[this.position] === '.') {
        this.position++
        const name = this.match(NAME) ?? this.fail('expected a name after "."')
        segments.push({ kind: 'key', name })
      } else if (this.source.startsWith('[*]', this.position)) {
        this.position += 3
        segments.push({ kind: 'all' })
      } else if (this.source[this.position] === '[') {
        this.position++
        const index = this.match(/\d+/y) ?? this.fail('expected an index or * inside [ ]')
        if (this.source[this.position] !== ']') this.fail('expected "]"')
        this.position++
        segments.push({ kind: 'index', index: Number(index) })
      } else {
        return segments
      }
    }
  }

  private call(): FunctionCall {
    this.skipSpace()
    const name = this.match(NAME) ?? this.fail('expected a function name after "|"')
    const args: (string | number)[] = []
    this.skipSpace()
    if (this.source[this.position] === '(') {
      this.position++
      this.skipSpace()
      while (this.source[this.position] !== ')') {
        args.push(this.argument())
        this.skipSpace()
        if (this.source[this.position] === ',') this.position++
        else if (this.source[this.position] !== ')') this.fail('expected "," or ")" in the argument list')
        this.skipSpace()
      }
      this.position++
    }
    return { name, args }
  }

  private argument(): string | number {
    const quote = this.source[this.position]
    if (quote === "'" || quote === '"') return this.quoted()
    const number = this.match(NUMBER)
    if (number !== undefined) return Number(number)
    return this.match(NAME) ?? this.fail('expected an argument')
  }

  private quoted(): string {
    const quote = this.source[this.position]
    const end = this.source.indexOf(quote as string, this.position + 1)
    if (end < 0) this.fail('unterminated quoted text')
    const value = this.source.slice(this.position + 1, end)
    this.position = end + 1
    return value
  }

  private eat(token: string): boolean {
    this.skipSpace()
    if (!this.source.startsWith(token, this.position)) return false
    this.position += token.length
    return true
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position
    const found = pattern.exec(this.source)
    if (!found) return undefined
    this.position = pattern.lastIndex
    return found[0]
  }

  private skipSpace(): void {
    SPACE.lastIndex = this.position
    SPACE.exec(this.source)
    this.position = SPACE.lastIndex
  }

  private fail(message: string): never {
    throw new ExpressionSyntaxError(message, this.position)
  }
}
