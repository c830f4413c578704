import { relative } from 'node:path'
import { isNode, LineCounter, parseDocument, type Document } from 'yaml'
import type { Diagnostic, SourceRef } from '../model/diagnostic.js'
import { type FastYaml, parseFastYaml } from './fast-yaml.js'

export type YamlPath = readonly (string | number)[]

/** A parsed YAML file that can turn any path inside it back into file:line:col. */
export interface YamlSource {
  readonly file: string
  readonly data: unknown
  readonly locate: (path: YamlPath, part?: 'key' | 'value') => SourceRef
}

function displayPath(absolutePath: string): string {
  const shown = relative(process.cwd(), absolutePath)
  return shown.startsWith('..') ? absolutePath : shown
}

export function parseYamlSource(absolutePath: string, text: string): { source?: YamlSource; diagnostics: Diagnostic[] } {
  const file = displayPath(absolutePath)
  const lineCounter = new LineCounter()
  const at = (offset: number): SourceRef => {
    const { line, col } = lineCounter.linePos(offset)
    return { file, line, column: col }
  }
  const fast = parseFastYaml(text, lineCounter.addNewLine)
  if (fast) {
    // Values are located from the quick parse's offsets; a key, or a path that is not there, by the
    // full document, composed only the first time such a place is asked for (a diagnostic).
    let document: Document | undefined
    const full = (path: YamlPath, part?: 'key' | 'value'): SourceRef => {
      document ??= parseDocument(text, { uniqueKeys: true, prettyErrors: false })
      return locate(document, path, part, at)
    }
    return { source: { file, data: fast.data, locate: (path, part) => locateFast(fast, path, part, at) ?? full(path, part) }, diagnostics: [] }
  }
  lineCounter.lineStarts.length = 0
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false })
  if (document.errors.length > 0) {
    return {
      diagnostics: document.errors.map((error) => ({
        code: 'E_YAML_SYNTAX' as const,
        kind: 'load' as const,
        message: `${error.code}: ${error.message.split('\n')[0]}`,
        at: at(error.pos[0]),
      })),
    }
  }
  let data: unknown
  try {
    // toJS resolves aliases; an alias to an anchor that does not exist (`*x`) throws here.
    data = document.toJS({ maxAliasCount: 100 })
  } catch (error) {
    return { diagnostics: [{ code: 'E_YAML_SYNTAX', kind: 'load', message: (error as Error).message, at: at(0), hint: 'check the anchors (&name) and aliases (*name) of this file' }] }
  }
  return { source: { file, data, locate: (path, part) => locate(document, path, part, at) }, diagnostics: [] }
}

function locateFast(fast: FastYaml, path: YamlPath, part: 'key' | 'value' | undefined, at: (offset: number) => SourceRef): SourceRef | undefined {
  if (part === 'key' || fast.rootOffset === undefined) return undefined
  let value = fast.data
  let offset = fast.rootOffset
  for (const step of path) {
    const offsets = value !== null && typeof value === 'object' ? fast.offsets.get(value) : undefined
    const next = offsets instanceof Map ? (typeof step === 'string' ? offsets.get(step) : undefined) : typeof step === 'number' ? offsets?.[step] : undefined
    if (next === undefined) return undefined
    value = (value as Record<string | number, unknown>)[step]
    offset = next
  }
  return at(offset)
}

function locate(document: Document, path: YamlPath, part: 'key' | 'value' | undefined, at: (offset: number) => SourceRef): SourceRef {
  // Walk up to the nearest ancestor that exists (an absent key is reported at its parent).
  for (let length = path.length; length >= 0; length--) {
    const prefix = path.slice(0, length)
    if (part === 'key' && length === path.length && length > 0) {
      const parent = prefix.length > 1 ? document.getIn(prefix.slice(0, -1), true) : document.contents
      const pair = isNode(parent) && 'items' in parent ? (parent.items as unknown[]).find((item) => isKeyOf(item, prefix.at(-1))) : undefined
      const key = pair && typeof pair === 'object' && 'key' in pair ? (pair as { key: unknown }).key : undefined
      if (isNode(key) && key.range) return at(key.range[0])
    }
    const node = length === 0 ? document.contents : document.getIn(prefix, true)
    if (isNode(node) && node.range) return at(node.range[0])
  }
  return at(0)
}

function isKeyOf(item: unknown, name: unknown): boolean {
  if (!item || typeof item !== 'object' || !('key' in item)) return false
  const key = (item as { key: unknown }).key
  return isNode(key) && 'value' in key && (key as { value: unknown }).value === name
}
