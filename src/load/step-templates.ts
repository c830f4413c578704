import { dirname, resolve } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import { didYouMean } from './did-you-mean.js'
import type { YamlPath, YamlSource } from './yaml-source.js'
import { isRecord } from '../shared/is-record.js'

type RawMap = Record<string, unknown>

/** A named step fragment and the file it was written in, so its problems point there. */
interface Template {
  readonly name: string
  readonly body: RawMap
  readonly source: YamlSource
  readonly path: YamlPath
}

/** Reads a file named by `include:` (parsed, not validated: it is validated as a file of its own). */
export type ReadTemplateFile = (absolutePath: string) => Promise<{ source?: YamlSource; diagnostics: Diagnostic[] }>

/**
 * Replaces every `use: <name>` step of a scenario file by its template with the step's own keys
 * merged over it: maps merge key by key, lists and scalars replace. Templates come from the file's
 * `templates:` map and from the files its `include:` names; a template may `use` another. The
 * result is the file as if every step had been written out, so the schema, the loader and the
 * runner see nothing new, and places still point into the file (a key the template gave is reported
 * at the step that used it).
 */
export async function expandStepTemplates(
  source: YamlSource,
  readFile: ReadTemplateFile,
): Promise<{ data: unknown; diagnostics: Diagnostic[] }> {
  const data = source.data
  if (!isRecord(data) || !Array.isArray(data['scenarios'])) return { data, diagnostics: [] }
  const diagnostics: Diagnostic[] = []
  const templates = new Map<string, Template>()
  const add = (from: YamlSource, map: unknown, path: YamlPath): void => {
    if (!isRecord(map)) return // the schema reports it
    for (const [name, body] of Object.entries(map)) {
      if (!isRecord(body)) continue
      const earlier = templates.get(name)
      if (earlier) {
        const first = earlier.source.locate(earlier.path)
        diagnostics.push(
          problem(
            `template "${name}" is defined twice (first at ${first.file}:${first.line}:${first.column})`,
            from,
            [...path, name],
            undefined,
            'key',
          ),
        )
        continue
      }
      templates.set(name, { name, body, source: from, path: [...path, name] })
    }
  }
  const includes = typeof data['include'] === 'string' ? [data['include']] : data['include']
  if (Array.isArray(includes)) {
    for (const [index, file] of includes.entries()) {
      if (typeof file !== 'string') continue
      const at: YamlPath = typeof data['include'] === 'string' ? ['include'] : ['include', index]
      const read = await readFile(resolve(dirname(source.file), file))
      if (!read.source) {
        const syntax = read.diagnostics.some((diagnostic) => diagnostic.code === 'E_YAML_SYNTAX')
        diagnostics.push(
          problem(
            syntax ? `the included file ${file} is not valid YAML` : `cannot read the included file ${file}`,
            source,
            at,
            syntax ? 'its own diagnostics say where' : 'the path is relative to this file',
          ),
        )
        continue
      }
      if (!isRecord(read.source.data) || !isRecord(read.source.data['templates'])) {
        diagnostics.push(problem(`the included file ${file} holds no templates: map`, source, at))
        continue
      }
      add(read.source, read.source.data['templates'], ['templates'])
    }
  }
  add(source, data['templates'], ['templates'])
  const expander = new Expander(templates, diagnostics)
  const expanded = (data['scenarios'] as unknown[]).map((scenario: unknown, index) => {
    if (!isRecord(scenario)) return scenario
    const result: RawMap = { ...scenario }
    for (const list of ['steps', 'cleanup'] as const) {
      const steps = scenario[list]
      if (Array.isArray(steps))
        result[list] = steps.map((step: unknown, at) => expander.step(step, source, ['scenarios', index, list, at]))
    }
    return result
  })
  return { data: { ...data, scenarios: expanded }, diagnostics }
}

class Expander {
  private readonly resolved = new Map<string, RawMap | undefined>()

  constructor(
    private readonly templates: ReadonlyMap<string, Template>,
    private readonly diagnostics: Diagnostic[],
  ) {}

  step(step: unknown, source: YamlSource, path: YamlPath): unknown {
    if (!isRecord(step)) return step
    const { use, ...own } = step
    let result: RawMap = own
    if (use !== undefined) {
      const base = typeof use === 'string' ? this.resolve(use, [], source, [...path, 'use']) : undefined
      if (base) result = merge(base, own) as RawMap
    }
    const branches = result['parallel']
    if (Array.isArray(branches))
      result = {
        ...result,
        parallel: branches.map((branch: unknown, index) => this.step(branch, source, [...path, 'parallel', index])),
      }
    return result
  }

  /** A template with the templates it uses merged under it; undefined (reported) when there is none. */
  private resolve(name: string, chain: readonly string[], source: YamlSource, at: YamlPath): RawMap | undefined {
    const template = this.templates.get(name)
    if (!template) {
      const suggestion = didYouMean(name, [...this.templates.keys()])
      this.diagnostics.push(
        problem(
          `unknown template "${name}"`,
          source,
          at,
          suggestion
            ? `did you mean "${suggestion}"?`
            : this.templates.size === 0
              ? 'define it under templates: in this file, or include: a file that does'
              : `known templates: ${[...this.templates.keys()].join(', ')}`,
        ),
      )
      return undefined
    }
    if (chain.includes(name)) {
      this.diagnostics.push(problem(`templates use each other in a cycle: ${[...chain, name].join(' → ')}`, source, at))
      return undefined
    }
    if (this.resolved.has(name)) return this.resolved.get(name)
    const { use, ...own } = template.body
    let result: RawMap | undefined = own
    if (use !== undefined) {
      const base =
        typeof use === 'string'
          ? this.resolve(use, [...chain, name], template.source, [...template.path, 'use'])
          : undefined
      result = base ? (merge(base, own) as RawMap) : undefined
    }
    this.resolved.set(name, result)
    return result
  }
}

/** `over` merged onto `base`: maps key by key (base's keys first, in their order), anything else replaced. */
function merge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return structuredClone(over)
  const result: RawMap = {}
  for (const [key, value] of Object.entries(base))
    result[key] = key in over ? merge(value, over[key]) : structuredClone(value)
  for (const [key, value] of Object.entries(over)) if (!(key in base)) result[key] = structuredClone(value)
  return result
}

function problem(
  message: string,
  source: YamlSource,
  path: YamlPath,
  hint?: string,
  part?: 'key' | 'value',
): Diagnostic {
  return { code: 'E_SCENARIO_SCHEMA', kind: 'load', message, at: source.locate(path, part), hint }
}
