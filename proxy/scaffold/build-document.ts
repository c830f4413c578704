/**
 * Scenario drafts → `yaml` Documents (not strings), so that key order and the review comments are
 * ours: the file opens with where it came from, each step says which exchange it was recorded from and
 * what the proxy found in it.
 */
import { Document, isMap, type YAMLMap } from 'yaml'
import { rulesOfDraft, type ScenarioDraft } from './plan-scenarios.js'

export interface DocumentOptions {
  /** Recording file name, for the comments. */
  readonly recording: string
  /** Path from the output folder to schemas/scenario.schema.json, for editors. */
  readonly schemaPath: string
}

export function buildScenarioDocument(draft: ScenarioDraft, options: DocumentOptions): Document {
  const first = draft.steps[0]?.exchange
  const rules = rulesOfDraft(draft)
  const scenario = {
    id: draft.id,
    title: draft.title,
    rules: rules.length > 0 ? rules : ['BODY-IS-JSON'],
    tags: [...draft.tags],
    steps: draft.steps.map((s) => s.step),
  }
  const doc = new Document({ scenarios: [scenario] })
  const from = first === undefined ? '' : ` from ${first.method} ${first.path}`
  doc.commentBefore = [
    ` yaml-language-server: $schema=${options.schemaPath}`,
    '',
    ` recorded ${first?.startedDateTime.slice(0, 10) ?? ''}${from}; review before committing`,
    ` Scaffolded by \`fitconform scaffold\` from ${options.recording}; stands for ${draft.represents} recorded exchange(s)${flowsOf(draft)}.`,
    ' Assertions are those §4 states for each endpoint (status, media type, schema, headers, no body),',
    ' not the recorded values: ids and dates are captured at run time.',
  ].join('\n')
  const steps = doc.getIn(['scenarios', 0, 'steps'], true)
  if (isMap(doc.getIn(['scenarios', 0], true))) {
    draft.steps.forEach((s, i) => {
      const node = (steps as { items?: unknown[] } | undefined)?.items?.[i]
      if (isMap(node)) (node as YAMLMap).commentBefore = s.comments.map((c) => ` ${c}`).join('\n')
    })
  }
  return doc
}

export function renderScenarioDocument(doc: Document): string {
  return doc.toString({ lineWidth: 0 })
}

function flowsOf(draft: ScenarioDraft): string {
  return draft.flows === undefined || draft.flows < 2 ? '' : ` in ${draft.flows} flows of this shape`
}
