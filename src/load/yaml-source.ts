import { createRequire } from 'node:module'
import { relative } from 'node:path'
import type { Document } from 'yaml'
import type { Diagnostic, SourceRef } from '../model/diagnostic.js'
import { parseFastYaml } from './fast-yaml.js'
import { findTooDeepNesting, MAX_NESTING_DEPTH } from './nesting-depth.js'

// `yaml` (the composer) is loaded on first need: a file outside the quick subset, or a diagnostic
// that points at a key. A run whose files all stay inside the subset does not pay for loading it
//. It is CommonJS under Node, so require() loads it synchronously, as import would.
let yamlModule: typeof import('yaml') | undefined
function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')
  return yamlModule
}

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

export function parseYamlSource(
  absolutePath: string,
  text: string,
): { source?: YamlSource; diagnostics: Diagnostic[] } {
  const file = displayPath(absolutePath)
  const at = lineLocator(file, text)
  // Before any parser: each of them (and the loader after them) recurses once a level.
  const tooDeep = findTooDeepNesting(text)
  if (tooDeep !== undefined) {
    return {
      diagnostics: [
        {
          code: 'E_YAML_SYNTAX',
          kind: 'load',
          message: `nested deeper than ${MAX_NESTING_DEPTH} levels`,
          at: at(tooDeep),
          hint: `no scenario needs that many; flatten the value here (the limit keeps every reader within its stack)`,
        },
      ],
    }
  }
  // The one seam of the quick reader (fast-yaml.ts): its data and value places, or undefined and the composer.
  const fast = parseFastYaml(text)
  if (fast) {
    // A value is located from the quick parse's offsets; a key by the full document, composed only the
    // first time one is asked for (a diagnostic). A path that is not there is reported at its nearest
    // ancestor that is, as locate() does: the loader asks for such paths on every run (the `path` of a
    // `status:` check it writes itself), so they must not compose.
    let document: Document | undefined
    const full = (path: YamlPath, part?: 'key' | 'value'): SourceRef => {
      document ??= yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: false })
      return locate(document, path, part, at)
    }
    const locateValue = (path: YamlPath, part?: 'key' | 'value'): SourceRef => {
      const offset = part === 'key' ? undefined : fast.valueOffset(path)
      return offset === undefined ? full(path, part) : at(offset)
    }
    return { source: { file, data: fast.data, locate: locateValue }, diagnostics: [] }
  }
  const document = yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: false })
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
    return {
      diagnostics: [
        {
          code: 'E_YAML_SYNTAX',
          kind: 'load',
          message: (error as Error).message,
          at: at(0),
          hint: 'check the anchors (&name) and aliases (*name) of this file',
        },
      ],
    }
  }
  return { source: { file, data, locate: (path, part) => locate(document, path, part, at) }, diagnostics: [] }
}

/**
 * file:line:col of an offset, with lines and columns counted from 1 as the composer's LineCounter
 * counts them (line breaks are `\n`), so a place reads the same whichever way the file was parsed.
 * The line starts are found on the first call.
 */
function lineLocator(file: string, text: string): (offset: number) => SourceRef {
  let lineStarts: number[] | undefined
  return (offset) => {
    if (!lineStarts) {
      lineStarts = [0]
      for (let next = text.indexOf('\n'); next >= 0; next = text.indexOf('\n', next + 1)) lineStarts.push(next + 1)
    }
    // The last line start at or before the offset.
    let low = 0
    let high = lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (lineStarts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    // Frozen: a loaded scenario holds its places for the whole run, and no two places are equal, so
    // interning passes over what is frozen rather than looking each one up (src/shared/interning.ts).
    return Object.freeze({ file, line: low + 1, column: offset - lineStarts[low]! + 1 })
  }
}

function locate(
  document: Document,
  path: YamlPath,
  part: 'key' | 'value' | undefined,
  at: (offset: number) => SourceRef,
): SourceRef {
  // Walk up to the nearest ancestor that exists (an absent key is reported at its parent).
  const { isNode } = yaml()
  for (let length = path.length; length >= 0; length--) {
    const prefix = path.slice(0, length)
    if (part === 'key' && length === path.length && length > 0) {
      const parent = prefix.length > 1 ? document.getIn(prefix.slice(0, -1), true) : document.contents
      const pair =
        isNode(parent) && 'items' in parent
          ? (parent.items as unknown[]).find((item) => isKeyOf(item, prefix.at(-1)))
          : undefined
      const key = pair && typeof pair === 'object' && 'key' in pair ? (pair as { key: unknown }).key : undefined
      if (isNode(key) && key.range) return at(key.range[0])
    }
    const node = length === 0 ? document.contents : document.getIn(prefix, true)
    if (isNode(node) && node.range) return at(node.range[0])
  }
  return at(0)
}

function isKeyOf(item: unknown, name: unknown): boolean {
  const { isNode } = yaml()
  if (!item || typeof item !== 'object' || !('key' in item)) return false
  const key = (item as { key: unknown }).key
  return isNode(key) && 'value' in key && (key as { value: unknown }).value === name
}
