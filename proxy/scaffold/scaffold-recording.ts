/**
 * A recording → scenario files (name and YAML text), in memory; the command writes them.
 * The scaffolder holds the recording's exchanges while it groups them (flows span the recording).
 */
import { basename } from 'node:path'
import type { ExchangeEntry } from '../../src/model/exchange.js'
import { readRecording } from '../exchange-log.js'
import { basePathOfRecording } from '../recording-paths.js'
import { buildScenarioDocument, renderScenarioDocument } from './build-document.js'
import { planScaffold } from './plan-scenarios.js'
import { toScaffoldExchange } from './scaffold-exchange.js'

export interface ScaffoldedFile {
  readonly name: string
  readonly text: string
}

export interface ScaffoldOutcome {
  readonly files: readonly ScaffoldedFile[]
  readonly leftOut: readonly { readonly exchange: number; readonly reason: string }[]
  readonly skippedLines: number
}

export async function scaffoldRecording(recordings: readonly string[], options: { schemaPath: string }): Promise<ScaffoldOutcome> {
  const entries: ExchangeEntry[] = []
  const leftOut: { exchange: number; reason: string }[] = []
  let skippedLines = 0
  for (const file of recordings) {
    for await (const line of readRecording(file)) {
      if ('problem' in line) skippedLines += 1
      else if (line.entry._error !== undefined) leftOut.push({ exchange: line.entry._id, reason: `failed exchange (${line.entry._error.code})` })
      else entries.push(line.entry)
    }
  }
  const basePath = basePathOfRecording(entries)
  const recording = recordings.map((file) => basename(file)).join(', ')
  const idPrefix = `scaffold-${slug(basename(recordings[0] ?? 'recording').replace(/\.[^.]*$/, ''))}`
  const plan = planScaffold(
    entries.map((entry) => toScaffoldExchange(entry, basePath)),
    { idPrefix },
  )
  const files = plan.scenarios.map((draft) => ({
    name: `${draft.id}.yaml`,
    text: renderScenarioDocument(buildScenarioDocument(draft, { recording, schemaPath: options.schemaPath })),
  }))
  return { files, leftOut: [...leftOut, ...plan.leftOut], skippedLines }
}

function slug(text: string): string {
  const cleaned = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return cleaned === '' ? 'recording' : cleaned
}
