// The quick way through a scenario file (issue 15): the `yaml` package's composer (parseDocument +
// toJS) builds a node per value and then copies it into plain data, and that costs about eight times
// its own CST parser. Scenario files use a small part of YAML (block and flow maps and sequences,
// plain, quoted and block scalars, comments), so this walks the CST straight into plain data and
// notes where each value starts. Anything outside that part returns undefined (anchors, aliases,
// tags, directives, several documents, tabs, explicit, multi-line or non-string keys, duplicate keys,
// empty values, flow collections over several lines, any token the composer would have to judge),
// and the caller takes the full composer, which also words every syntax error: the data is the same
// either way, only sooner. test/unit/load/fast-yaml.test.ts holds every built-in suite file to that.
import { CST, Document, isScalar, Parser, type ScalarTag } from 'yaml'

/** Where a collection's values start: by key for a map, by index for a sequence. */
type ValueOffsets = Map<string, number> | number[]

export interface FastYaml {
  readonly data: unknown
  /** Offset of the root value, or undefined for an empty document. */
  readonly rootOffset: number | undefined
  /** The value offsets of every map and sequence of `data`. */
  readonly offsets: WeakMap<object, ValueOffsets>
}

class Unsupported extends Error {}

const SCALAR_TAGS = new Document().schema.tags.filter((tag): tag is ScalarTag => 'test' in tag && tag.test !== undefined && tag.default === true)
const TOP_LEVEL_NOISE = new Set(['comment', 'space', 'newline', 'byte-order-mark', 'doc-end'])
const BLANK = new Set(['space', 'newline', 'comment'])
/** The composer refuses implicit keys longer than this (KEY_OVER_1024_CHARS); leave long ones to it. */
const LONGEST_KEY = 1000

/** `onNewLine` is a LineCounter's addNewLine, fed as the lexer goes. */
export function parseFastYaml(text: string, onNewLine?: (offset: number) => void): FastYaml | undefined {
  // Tabs have indentation rules of their own (TAB_AS_INDENT): not worth a second implementation.
  if (text.includes('\t')) return undefined
  const walker = new CstWalker(text)
  try {
    let document: CST.Document | undefined
    for (const token of new Parser(onNewLine).parse(text)) {
      if (token.type === 'document' && document === undefined) document = token
      else if (!TOP_LEVEL_NOISE.has(token.type)) return undefined
      else if (token.type === 'comment') walker.only(BLANK, [token])
    }
    if (!document) return undefined
    walker.only(BLANK, document.start)
    walker.only(BLANK, document.end)
    if (!document.value) return { data: null, rootOffset: undefined, offsets: walker.offsets }
    return { data: walker.valueOf(document.value), rootOffset: document.value.offset, offsets: walker.offsets }
  } catch (error) {
    if (error instanceof Unsupported) return undefined
    throw error
  }
}

class CstWalker {
  readonly offsets = new WeakMap<object, ValueOffsets>()

  constructor(private readonly text: string) {}

  /** Throws Unsupported unless every token is of an allowed type and every comment follows white space. */
  only(allowed: ReadonlySet<string>, tokens: readonly CST.SourceToken[] | undefined): void {
    if (!tokens) return
    for (const token of tokens) {
      if (!allowed.has(token.type)) throw new Unsupported()
      if (token.type === 'comment' && token.offset > 0 && !/\s/.test(this.text[token.offset - 1]!)) throw new Unsupported()
    }
  }

  valueOf(token: CST.Token): unknown {
    switch (token.type) {
      case 'block-map':
        return this.blockMap(token)
      case 'block-seq':
        return this.blockSequence(token)
      case 'flow-collection':
        return this.flowCollection(token)
      default:
        return scalarOf(token)
    }
  }

  private blockMap(token: CST.BlockMap): Record<string, unknown> {
    const map: Record<string, unknown> = {}
    const where = new Map<string, number>()
    for (const { start, key, sep, value } of token.items) {
      this.only(BLANK, start)
      if (!key || !sep || !value || key.type === 'block-scalar' || !('indent' in key) || key.indent !== token.indent) throw new Unsupported()
      if (!('source' in key) || key.source.length > LONGEST_KEY || key.source.includes('\n')) throw new Unsupported()
      this.only(MAP_SEPARATOR, sep)
      if (sep.filter((part) => part.type === 'map-value-ind').length !== 1) throw new Unsupported()
      // `a: b: c` and `a: - b` are errors the composer words; a nested block collection starts on a new line.
      if ((value.type === 'block-map' || value.type === 'block-seq') && !sep.some((part) => part.type === 'newline')) throw new Unsupported()
      this.set(map, where, scalarOf(key), value)
    }
    this.offsets.set(map, where)
    return map
  }

  private blockSequence(token: CST.BlockSequence): unknown[] {
    const list: unknown[] = []
    const where: number[] = []
    for (const { start, value } of token.items) {
      this.only(SEQUENCE_START, start)
      const indicators = start.filter((part) => part.type === 'seq-item-ind')
      // A `-` alone is null, which the composer places its own way: leave such files to it.
      if (indicators.length !== 1 || indicators[0]!.indent !== token.indent || !value) throw new Unsupported()
      list.push(this.valueOf(value))
      where.push(value.offset)
    }
    this.offsets.set(list, where)
    return list
  }

  private flowCollection(token: CST.FlowCollection): unknown {
    const isMap = token.start.source === '{'
    // One line, closed by its own bracket: flow collections spread over lines have indentation rules.
    const close = token.end.findIndex((part) => part.type !== 'space')
    if (close < 0 || token.end[close]!.type !== (isMap ? 'flow-map-end' : 'flow-seq-end')) throw new Unsupported()
    this.only(BLANK, token.end.slice(close + 1))
    const map: Record<string, unknown> = {}
    const mapWhere = new Map<string, number>()
    const list: unknown[] = []
    const listWhere: number[] = []
    token.items.forEach(({ start, key, sep, value }, index) => {
      this.only(FLOW_START, start)
      const commas = start.filter((part) => part.type === 'comma').length
      if (commas !== (index === 0 ? 0 : 1)) throw new Unsupported()
      if (!value && !key && !sep && index === token.items.length - 1 && index > 0) return // a trailing comma
      if (!value) throw new Unsupported()
      if (isMap) {
        if (!key || !sep) throw new Unsupported()
        this.only(FLOW_SEPARATOR, sep)
        if (sep.filter((part) => part.type === 'map-value-ind').length !== 1) throw new Unsupported()
        this.set(map, mapWhere, scalarOf(key), value)
      } else {
        if (key !== undefined || sep !== undefined) throw new Unsupported() // a single-pair map inside [ ]
        list.push(this.valueOf(value))
        listWhere.push(value.offset)
      }
    })
    if (holdsBlockCollection(token)) throw new Unsupported()
    if (isMap) {
      this.offsets.set(map, mapWhere)
      return map
    }
    this.offsets.set(list, listWhere)
    return list
  }

  private set(map: Record<string, unknown>, where: Map<string, number>, key: unknown, valueToken: CST.Token): void {
    if (typeof key !== 'string' || where.has(key)) throw new Unsupported()
    const value = this.valueOf(valueToken)
    // As the composer's toJS does: a key the object already has (`__proto__`, `constructor`) is defined, not assigned.
    if (key in map) Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true })
    else map[key] = value
    where.set(key, valueToken.offset)
  }
}

const MAP_SEPARATOR = new Set(['space', 'newline', 'comment', 'map-value-ind'])
const SEQUENCE_START = new Set(['space', 'newline', 'comment', 'seq-item-ind'])
const FLOW_START = new Set(['space', 'comma'])
const FLOW_SEPARATOR = new Set(['space', 'map-value-ind'])

/** Flow collections nest flow collections; a block one inside is an error the composer words. */
function holdsBlockCollection(token: CST.FlowCollection): boolean {
  return token.items.some((item) => item.value !== undefined && (item.value.type === 'block-map' || item.value.type === 'block-seq'))
}

function scalarOf(token: CST.Token): unknown {
  if (token.type !== 'scalar' && token.type !== 'single-quoted-scalar' && token.type !== 'double-quoted-scalar' && token.type !== 'block-scalar') throw new Unsupported()
  if (token.type === 'block-scalar' && token.props.some((part) => part.type !== 'block-scalar-header' && !BLANK.has(part.type))) throw new Unsupported()
  if (token.type !== 'block-scalar' && token.end?.some((part) => !BLANK.has(part.type))) throw new Unsupported()
  const resolved = CST.resolveAsScalar(token, true, () => {
    throw new Unsupported()
  })
  if (!resolved) throw new Unsupported()
  if (token.type !== 'scalar') return resolved.value
  const tag = SCALAR_TAGS.find((each) => each.test!.test(resolved.value))
  if (!tag) return resolved.value
  const value = tag.resolve(resolved.value, () => {
    throw new Unsupported()
  }, {})
  // The float tag answers a Scalar node to remember its digits; toJS takes its value.
  return isScalar(value) ? value.value : value
}
