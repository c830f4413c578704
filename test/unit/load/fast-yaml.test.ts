import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
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
    if (isMap(node)) for (const pair of node.items) walk(pair.value as Node, [...path, String((pair.key as { value: unknown }).value)])
    if (isSeq(node)) node.items.forEach((item, index) => walk(item as Node, [...path, index]))
  }
  walk(document.contents as Node, [])
  return places
}

describe('the quick YAML path', () => {
  const files = yamlFiles(SUITES)

  it.each(files.map((file) => [file.slice(SUITES.length + 1), file]))('reads %s as the composer does, data and positions', (_, file) => {
    const text = readFileSync(file, 'utf8')
    expect(parseFastYaml(text), 'the built-in suite stays inside the quick subset').toBeDefined()
    const source = parseYamlSource(file, text).source!
    expect(source.data).toEqual(parseDocument(text).toJS())
    for (const place of composedPlaces(text)) {
      expect(source.locate(place.path), place.path.join('.')).toMatchObject({ line: place.line, column: place.col })
    }
  })

  it('reads scalars by the YAML 1.2 core schema', () => {
    const text = 'a: 12\nb: 0x1f\nc: 1.50\nd: true\ne: ~\nf: "7"\ng: .inf\nh: 1e3\ni: [1, two, "3"]\nj: { k: null }\nl: |\n  two\n  lines\n'
    expect(parseFastYaml(text)?.data).toEqual(parseDocument(text).toJS())
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
