// A fuzz sequence as a scenario file of the suite's own format (docs/scenario-format.md): the text is
// loaded through the suite's loader before it runs, so what ran and what a reproduction file holds
// are the same thing.
import { stringify } from 'yaml'
import type { Diagnostic } from '../model/diagnostic.js'
import type { Scenario } from '../model/scenario.js'
import { toScenarios } from '../load/to-scenario.js'
import { validateScenarioFile } from '../load/scenario-file-validator.js'
import { parseYamlSource } from '../load/yaml-source.js'
import { RULE } from '../spec/rule-ids.js'

/** One step as written in a scenario file. */
export type StepData = Record<string, unknown>

export interface ScenarioDraft {
  readonly steps: StepData[]
  readonly cleanup: StepData[]
}

export function createDraft(): ScenarioDraft {
  return { steps: [], cleanup: [] }
}

export interface DraftIdentity {
  readonly id: string
  readonly title: string
  /** Comment lines written above the scenario. */
  readonly header: readonly string[]
}

/** Every rule id a step or check of the draft names: the scenario's `rules`. */
function rulesOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const element of value) rulesOf(element, found)
  else if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) {
      if (key === 'rule') for (const id of [element].flat()) found.add(String(id))
      else if (key !== 'json' && key !== 'body') rulesOf(element, found)
    }
  }
  return found
}

export function draftToYaml(draft: ScenarioDraft, identity: DraftIdentity): string {
  const rules = [...rulesOf([draft.steps, draft.cleanup])].sort()
  const scenario = {
    id: identity.id,
    title: identity.title,
    rules: rules.length > 0 ? rules : [RULE.errorClientNot5xx],
    tags: ['fuzz'],
    steps: draft.steps.length > 0 ? draft.steps : [{ name: 'nothing to do', expect: { checks: [] } }],
    ...(draft.cleanup.length > 0 ? { cleanup: draft.cleanup } : {}),
  }
  const header = [...identity.header.map((line) => `# ${line}`.trimEnd())].join('\n')
  return `${header}\n${stringify({ scenarios: [scenario] }, { lineWidth: 0 })}`
}

/** Loads scenario text exactly as `fitconform run` loads a file. */
export function loadDraftText(
  file: string,
  text: string,
  knownRules: ReadonlySet<string>,
): { scenario?: Scenario; diagnostics: Diagnostic[] } {
  const { source, diagnostics } = parseYamlSource(file, text)
  if (!source) return { diagnostics }
  const problems = validateScenarioFile(source)
  if (problems.length > 0) return { diagnostics: problems }
  const loaded = toScenarios(source, knownRules)
  return { scenario: loaded.scenarios[0], diagnostics: loaded.diagnostics }
}
