import { readFile } from 'node:fs/promises'
import type { Diagnostic } from '../model/diagnostic.js'
import type { Rule, Scenario } from '../model/scenario.js'
import { findScenarioFiles } from './find-scenario-files.js'
import { loadRules } from './load-rules.js'
import { expandPermissionMatrix, isPermissionMatrix } from '../spec/permission-matrix.js'
import { validateScenarioFile } from './scenario-file-validator.js'
import { toScenarios } from './to-scenario.js'
import { expandStepTemplates } from './step-templates.js'
import { parseYamlSource, type YamlSource } from './yaml-source.js'
import { createInterner } from '../shared/interning.js'

export interface LoadOutcome {
  readonly scenarios: readonly Scenario[]
  readonly rules: readonly Rule[]
  /** Any diagnostic here means nothing may run: every file is read first so all problems show at once. */
  readonly diagnostics: readonly Diagnostic[]
}

/** Loads the rule catalogue and every scenario file under `paths`. */
export async function loadSuites(paths: readonly string[]): Promise<LoadOutcome> {
  const catalogue = await loadRules()
  // A retired id stays in the catalogue (never to be reused) but no scenario may cite it.
  const knownRules = new Set(catalogue.rules.filter((rule) => !rule.retired).map((rule) => rule.id))
  const found = await findScenarioFiles(paths)
  const diagnostics: Diagnostic[] = [...catalogue.diagnostics, ...found.diagnostics]
  const scenarios: Scenario[] = []
  // Every scenario is kept until the run ends: what scenarios repeat is held once, and no string
  // cut from a file's text keeps that text alive (src/shared/interning.ts). Shared, so frozen.
  const holdOnce = createInterner({ copyTexts: true, freeze: true })
  for (const file of found.files) {
    const loaded = await loadScenarioFile(file, knownRules)
    for (const scenario of loaded.scenarios) scenarios.push(holdOnce(scenario))
    diagnostics.push(...loaded.diagnostics)
  }
  diagnostics.push(...duplicateIds(scenarios))
  if (found.files.length === 0 && found.diagnostics.length === 0) {
    diagnostics.push({ code: 'E_USAGE', kind: 'load', message: `no scenario files (*.yaml) under ${paths.join(', ')}` })
  }
  return { scenarios, rules: catalogue.rules, diagnostics }
}

export async function loadScenarioFile(
  file: string,
  knownRules: ReadonlySet<string>,
): Promise<{ scenarios: Scenario[]; diagnostics: Diagnostic[] }> {
  const { source: parsed, diagnostics } = parseYamlSource(file, await readFile(file, 'utf8'))
  if (!parsed) return { scenarios: [], diagnostics }
  const expanded = await expandStepTemplates(parsed, readYamlFile)
  if (expanded.diagnostics.length > 0) return { scenarios: [], diagnostics: expanded.diagnostics }
  const source: YamlSource = { ...parsed, data: expanded.data }
  const schemaProblems = validateScenarioFile(source)
  if (schemaProblems.length > 0) return { scenarios: [], diagnostics: schemaProblems }
  if (isPermissionMatrix(source.data)) return expandPermissionMatrix(source, knownRules)
  // A file of templates only (suites/templates.yaml) holds no scenario of its own.
  if (!('scenarios' in (source.data as object))) return { scenarios: [], diagnostics: [] }
  return toScenarios(source, knownRules)
}

/** An included file of templates: one that cannot be read is the including file's problem. */
async function readYamlFile(file: string): Promise<{ source?: YamlSource; diagnostics: Diagnostic[] }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return { diagnostics: [{ code: 'E_USAGE', kind: 'load', message: `cannot read ${file}` }] }
  }
  return parseYamlSource(file, text)
}

function duplicateIds(scenarios: readonly Scenario[]): Diagnostic[] {
  const firstSeen = new Map<string, Scenario>()
  const problems: Diagnostic[] = []
  for (const scenario of scenarios) {
    const first = firstSeen.get(scenario.id)
    if (first) {
      problems.push({
        code: 'E_DUPLICATE_ID',
        kind: 'load',
        message: `scenario id "${scenario.id}" is used twice (first at ${first.file}:${first.at.line}:${first.at.column})`,
        at: scenario.at,
      })
    } else {
      firstSeen.set(scenario.id, scenario)
    }
  }
  return problems
}
