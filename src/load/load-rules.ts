import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '../model/diagnostic.js'
import type { Rule } from '../model/scenario.js'
import { packageRoot } from '../shared/package-root.js'
import { parseYamlSource } from './yaml-source.js'

interface RawRule {
  id: string
  section: string
  quote: string
  appliesTo: 'server' | 'client'
  irregularity?: boolean
  retired?: boolean
}

export const RULES_FILE_NAME = 'rules.yaml'

/** The rule catalogue (suites/rules.yaml of the package): stable ids every scenario refers to. */
export async function loadRules(
  file = join(packageRoot(), 'suites', RULES_FILE_NAME),
): Promise<{ rules: Rule[]; diagnostics: Diagnostic[] }> {
  const { source, diagnostics } = parseYamlSource(file, await readFile(file, 'utf8'))
  if (!source) return { rules: [], diagnostics }
  const raw = (source.data as { rules?: RawRule[] } | null)?.rules
  if (!Array.isArray(raw)) {
    return {
      rules: [],
      diagnostics: [
        {
          code: 'E_SCENARIO_SCHEMA',
          kind: 'load',
          message: 'the rule catalogue has no "rules" list',
          at: source.locate([]),
        },
      ],
    }
  }
  const rules = raw.map((rule, index) => ({
    id: rule.id,
    section: rule.section,
    quote: rule.quote,
    appliesTo: rule.appliesTo,
    irregularity: rule.irregularity ?? false,
    retired: rule.retired ?? false,
    at: source.locate(['rules', index]),
  }))
  return { rules, diagnostics: [] }
}
