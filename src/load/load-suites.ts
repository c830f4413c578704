import { readFile } from 'node:fs/promises'
import type { Diagnostic } from '../model/diagnostic.js'
import type { Rule, Scenario } from '../model/scenario.js'
import { findScenarioFiles } from './find-scenario-files.js'
import { loadRules } from './load-rules.js'
import { expandPermissionMatrix, isPermissionMatrix } from '../spec/permission-matrix.js'
import { validateScenarioFile } from './scenario-file-validator.js'
import { toScenarios } from './to-scenario.js'
import { parseYamlSource } from './yaml-source.js'

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
  for (const file of found.files) {
    const loaded = await loadScenarioFile(file, knownRules)
    scenarios.push(...loaded.scenarios)
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
  const text = await readFile(file, 'utf8')
  const { source, diagnostics } = parseYamlSource(file, text)
  if (!source) return { scenarios: [], diagnostics }
  const schemaProblems = validateScenarioFile(source)
  if (schemaProblems.length > 0) return { scenarios: [], diagnostics: schemaProblems }
  if (isPermissionMatrix(source.data)) return expandPermissionMatrix(source, knownRules)
  return toScenarios(source, knownRules)
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
