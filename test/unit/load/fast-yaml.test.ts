import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import { describe, expect, it } from 'vitest'
import { parseFastYaml } from '../../../src/load/fast-yaml.js'
import { parseYamlSource, type YamlPath } from '../../../src/load/yaml-source.js'

const SUITES = join(import.meta.dirname, '..', '..', '..', 'suites')

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return yamlFiles(path)
    return entry.name.endsWith('.yaml') ? [path] : []
  })
}

/** Every path to a value in the composed document, with the line:col the composer gives it. */
function composedPlaces(text: string): { path: YamlPath; line: number; col: number }[] {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter })
  const places: { path: YamlPath; line: number; col: number }[] = []
  const walk = (node: Node | null | undefined, path: YamlPath): void => {
    if (!node?.range) return
    places.push({ path, ...lineCounter.linePos(node.range[0]) })
    if (isMap(node))
      for (const pair of node.items) walk(pair.value as Node, [...path, String((pair.key as { value: unknown }).value)])
    if (isSeq(node)) node.items.forEach((item, index) => walk(item as Node, [...path, index]))
  }
  walk(document.contents as Node, [])
  return places
}

/** Line and column of an offset, from 1, counting `\n` (the composer's LineCounter misses breaks inside block scalars). */
function lineAndColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset).split('\n')
  return [before.length, before.at(-1)!.length + 1]
}

/**
 * Either the quick path gives up, and the loader reads or rejects the text exactly as the composer
 * does (its errors at their line:col), or it reads what the composer reads, with no error, at the
 * same places.
 */
function expectSameAsComposer(text: string): void {
  const fast = parseFastYaml(text)
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false })
  if (fast === undefined) {
    const { source, diagnostics } = parseYamlSource('/tmp/generated.yaml', text)
    if (document.errors.length > 0) {
      expect(
        diagnostics.map((diagnostic) => [diagnostic.message.split(':')[0], diagnostic.at?.line, diagnostic.at?.column]),
        JSON.stringify(text),
      ).toEqual(document.errors.map((error) => [error.code, ...lineAndColumn(text, error.pos[0])]))
      return
    }
    let data: unknown
    try {
      data = document.toJS({ maxAliasCount: 100 })
    } catch (error) {
      expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([(error as Error).message])
      return
    }
    expect(source?.data, JSON.stringify(text)).toEqual(data)
    return
  }
  expect(
    document.errors.map((error) => error.code),
    JSON.stringify(text),
  ).toEqual([])
  expect(fast.data, JSON.stringify(text)).toEqual(document.toJS())
  const source = parseYamlSource('/tmp/generated.yaml', text).source!
  for (const place of composedPlaces(text)) {
    expect(source.locate(place.path), `${JSON.stringify(text)} at ${place.path.join('.')}`).toMatchObject({
      line: place.line,
      column: place.col,
    })
  }
}

/** Scalars that YAML reads in surprising ways: numbers, booleans, nulls, indicators, quotes, comments. */
const SCALARS = [
  'a',
  'hello world',
  'GET /user',
  '200',
  '-5',
  '+3',
  '1.50',
  '.5',
  '1e3',
  '0x1f',
  '0o17',
  '.inf',
  '-.Inf',
  '.nan',
  'true',
  'False',
  'null',
  '~',
  '',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  "it's",
  'say "hi"',
  '#c',
  '- x',
  '-x',
  '[a]',
  '{a}',
  'a, b',
  ' lead',
  'trail ',
  'ü€',
  'back\\slash',
  'tab\tbed',
  '@x',
  '`x',
  '%x',
  '&x',
  '*x',
  '!x',
  '?x',
  ':x',
  '|',
  '>',
  '__proto__',
  'constructor',
]

type Tree = string | Tree[] | { [key: string]: Tree }

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...SCALARS),
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...SCALARS.slice(0, 20)), tie('tree'), { maxKeys: 3 }),
  ),
})).tree

/** Renders a tree in a style picked per node by `pick` (block, flow, plain, quoted, block scalar, odd indentation). */
function render(node: Tree, indent: number, pick: () => number): string[] {
  const pad = ' '.repeat(indent)
  const step = 1 + (pick() % 3)
  if (typeof node === 'string') {
    const style = pick() % 6
    if (style === 0) return [`"${node.replace(/["\\]/g, (char) => `\\${char}`)}"`]
    if (style === 1) return [`'${node.replace(/'/g, "''")}'`]
    if (style === 2 && node !== '')
      return [
        `|${pick() % 2 === 0 ? '-' : ''}`,
        ...`${node}\n${node}`.split('\n').map((line) => pad + ' '.repeat(step) + line),
      ]
    if (style === 3 && node !== '')
      return [
        `>${pick() % 2 === 0 ? '-' : ''}`,
        ...`${node}\n${node}\n\n${node}`.split('\n').map((line) => (line === '' ? '' : pad + ' '.repeat(step) + line)),
      ]
    return [node]
  }
  if (pick() % 3 === 0) return [flow(node, pick)]
  const entries: [string | undefined, Tree][] = Array.isArray(node)
    ? node.map((item) => [undefined, item])
    : Object.entries(node)
  if (entries.length === 0) return [Array.isArray(node) ? '[]' : '{}']
  const lines: string[] = []
  for (const [key, value] of entries) {
    const head = key === undefined ? '-' : `${render(key, indent, pick)[0]}:`
    const inner = render(value, indent + step, pick)
    const nested = typeof value !== 'string' && inner.length > 1
    if (nested && key !== undefined && Array.isArray(value) && pick() % 2 === 0)
      lines.push(pad + head, ...render(value, indent, pick)) // a sequence at its key's indentation
    else if (nested) lines.push(pad + head, ...inner)
    else
      lines.push(
        `${pad}${head}${pick() % 4 === 0 ? '  ' : ' '}${inner[0]}${pick() % 5 === 0 ? ' # note' : ''}`,
        ...inner.slice(1),
      )
  }
  // The first line is written after its parent's indicator: a compact map or sequence starts on the `- ` line.
  return lines.map((line, index) => (index === 0 ? line.trimStart() : line))
}

function flow(node: Tree, pick: () => number): string {
  if (typeof node === 'string') return render(node, 0, () => pick() % 2)[0]!
  if (Array.isArray(node)) return `[${node.map((item) => flow(item, pick)).join(', ')}]`
  return `{ ${Object.entries(node)
    .map(([key, value]) => `${flow(key, pick)}: ${flow(value, pick)}`)
    .join(', ')} }`
}

const document = fc.tuple(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 50 })).map(([root, choices]) => {
  let next = 0
  const pick = (): number => choices[next++ % choices.length]!
  return render(root, 0, pick).join('\n') + '\n'
})

/** A document with a few characters that matter to YAML put in or taken out. */
const mutated = fc
  .tuple(
    document,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(
          ' ',
          '\n',
          ':',
          '-',
          '#',
          '"',
          "'",
          '[',
          ']',
          '{',
          '}',
          ',',
          '|',
          '>',
          'a',
          '1',
          '&',
          '*',
          '!',
          '?',
          '\\',
          '',
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([text, edits]) =>
    edits.reduce((edited, [at, char]) => {
      const place = at % (edited.length + 1)
      return char === ''
        ? edited.slice(0, place) + edited.slice(place + 1)
        : edited.slice(0, place) + char + edited.slice(place)
    }, text),
  )

describe('the quick YAML path', () => {
  const files = yamlFiles(SUITES)

  it.each(files.map((file) => [file.slice(SUITES.length + 1), file]))(
    'reads %s as the composer does, data and positions',
    (_, file) => {
      const text = readFileSync(file, 'utf8')
      expect(parseFastYaml(text), 'the built-in suite stays inside the quick subset').toBeDefined()
      const source = parseYamlSource(file, text).source!
      expect(source.data).toEqual(parseDocument(text).toJS())
      for (const place of composedPlaces(text)) {
        expect(source.locate(place.path), place.path.join('.')).toMatchObject({ line: place.line, column: place.col })
      }
    },
  )

  it('reads scalars by the YAML 1.2 core schema', () => {
    const text =
      'a: 12\nb: 0x1f\nc: 1.50\nd: true\ne: ~\nf: "7"\ng: .inf\nh: 1e3\ni: [1, two, "3"]\nj: { k: null }\nl: |\n  two\n  lines\n'
    expect(parseFastYaml(text)?.data).toEqual(parseDocument(text).toJS())
  })

  it('reads generated documents as the composer does, or leaves them to it', () => {
    let read = 0
    fc.assert(
      fc.property(document, (text) => {
        if (parseFastYaml(text) !== undefined) read++
        expectSameAsComposer(text)
      }),
      { numRuns: 1500 },
    )
    expect(read, 'most generated documents stay inside the quick subset').toBeGreaterThan(500)
  })

  it('reads damaged documents as the composer does, or leaves them to it', () => {
    fc.assert(fc.property(mutated, expectSameAsComposer), { numRuns: 3000 })
  })

  it.each([
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a syntax error', 'a: [1, 2\n'],
    ['a key without a value', 'a:\nb: 1\n'],
    ['a number as key', '200: ok\n'],
    ['a tab', 'a:\t1\n'],
    ['a flow sequence over two lines', 'a: [1,\n  2]\n'],
    ['a nested map on the key line', 'a: b: c\n'],
    ['a missing comma', 'a: { b: 1 c: 2 }\n'],
    ['a duplicate key in a flow map', 'a: { b: 1, b: 2 }\n'],
    ['a plain scalar over two lines', 'a: one\n  two\n'],
    ['a quoted scalar over two lines', 'a: "one\n  two"\n'],
    ['keep chomping', 'a: |+\n  one\n\n'],
    ['an indentation indicator', 'a: |2\n   one\n'],
    ['a document marker', '---\na: 1\n'],
    ['a CR line break', 'a: 1\r\nb: 2\r\n'],
    // fast-check found it: the `\"` was taken for the key's end, so the line was read as another key.
    ['an escaped quote in a double-quoted key', '"null\\":  { "true": "- x", ".nan": ".inf" }\n'],
  ])('leaves %s to the full composer', (_, text) => {
    expect(parseFastYaml(text)).toBeUndefined()
  })

  it('still reports a syntax error at its line and column when the quick path gives up', () => {
    const { diagnostics } = parseYamlSource('/tmp/broken.yaml', 'scenarios:\n  - id: x\n    steps: [a, b\n')
    expect(diagnostics[0]).toMatchObject({ code: 'E_YAML_SYNTAX', at: { line: expect.any(Number) as number } })
  })

  it('locates a key, and a value that is absent, through the full document', () => {
    const text = 'scenarios:\n  - id: x\n    titel: y\n'
    const source = parseYamlSource('/tmp/x.yaml', text).source!
    expect(source.locate(['scenarios', 0, 'titel'], 'key')).toMatchObject({ line: 3, column: 5 })
    expect(source.locate(['scenarios', 0, 'steps'])).toMatchObject({ line: 2, column: 5 })
  })
})
