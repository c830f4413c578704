/**
 * A recording → scenario files (name and YAML text); the command writes them. Streams the recording
 * twice, line by line, and never holds its exchanges: the first pass counts what needs
 * the whole recording (token uses for the roles, base path votes), the second plans the scenarios,
 * holding state per open flow and per distinct shape. What is returned is one file per distinct shape,
 * and a bounded list of the exchanges left out.
 */
import { basename } from 'node:path'
import type { ExchangeEntry } from '../../src/model/exchange.js'
import { readExchanges, type SkippedLine } from '../reading/read-exchanges.js'
import { voteBasePath, winningBasePath, type BasePathVotes } from '../recording/recording-paths.js'
import { buildScenarioDocument, renderScenarioDocument } from './build-document.js'
import { createScaffoldPlanner, type LeftOut } from './plan-scenarios.js'
import { toScaffoldExchange } from './scaffold-exchange.js'
import { countTokenUse, createTokenRoles, type TokenUses } from './token-roles.js'

/** Left-out exchanges listed by number; past this many, only counted (a recording can hold thousands). */
export const LEFT_OUT_LISTED = 50

export interface ScaffoldedFile {
  readonly name: string
  readonly text: string
}

export interface ScaffoldOutcome {
  readonly files: readonly ScaffoldedFile[]
  /** The first `LEFT_OUT_LISTED` exchanges left out. */
  readonly leftOut: readonly LeftOut[]
  /** All exchanges left out, listed or not. */
  readonly leftOutCount: number
}

export interface ScaffoldOptions {
  /** Path from the output folder to schemas/scenario.schema.json, for editors. */
  readonly schemaPath: string
  /** Told of each malformed line once (the recording is read twice). */
  readonly onSkipped?: (skipped: SkippedLine) => void
}

export async function scaffoldRecording(
  recordings: readonly string[],
  options: ScaffoldOptions,
): Promise<ScaffoldOutcome> {
  const uses: TokenUses = new Map()
  const votes: BasePathVotes = new Map()
  // The planner parses the bodies and walks them by recursion: this first pass refuses a body nested too deep (exit 2).
  for await (const entry of recordedEntries(recordings, { bodies: true })) {
    countTokenUse(uses, { tokenId: entry._tokenId, status: entry.response.status, responseJson: errorBodyOf(entry) })
    voteBasePath(votes, entry)
  }
  const basePath = winningBasePath(votes)

  const leftOut: LeftOut[] = []
  let leftOutCount = 0
  const onLeftOut = (item: LeftOut): void => {
    leftOutCount += 1
    if (leftOut.length < LEFT_OUT_LISTED) leftOut.push(item)
  }
  const idPrefix = `scaffold-${slug(basename(recordings[0] ?? 'recording').replace(/\.[^.]*$/, ''))}`
  const planner = createScaffoldPlanner({ idPrefix, roles: createTokenRoles(uses), onLeftOut })
  const lines = recordedEntries(recordings, {
    onSkipped: options.onSkipped,
    onFailed: (entry) =>
      onLeftOut({ exchange: entry._id, reason: `failed exchange (${entry._error?.code ?? 'unknown'})` }),
  })
  for await (const entry of lines) planner.add(toScaffoldExchange(entry, basePath))

  const recording = recordings.map((file) => basename(file)).join(', ')
  const files = planner.finish().map((draft) => ({
    name: `${draft.id}.yaml`,
    text: renderScenarioDocument(buildScenarioDocument(draft, { recording, schemaPath: options.schemaPath })),
  }))
  return { files, leftOut, leftOutCount }
}

/** The recorded exchanges of the files, in order, one at a time; malformed lines and failed exchanges are told, not yielded. */
async function* recordedEntries(
  recordings: readonly string[],
  on: {
    onSkipped?: ((skipped: SkippedLine) => void) | undefined
    onFailed?: (entry: ExchangeEntry) => void
    bodies?: boolean
  } = {},
): AsyncGenerator<ExchangeEntry> {
  for await (const { entry } of readExchanges(recordings, on.onSkipped ?? (() => {}), { bodies: on.bodies === true })) {
    if (entry._error !== undefined) on.onFailed?.(entry)
    else yield entry
  }
}

function slug(text: string): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return cleaned === '' ? 'recording' : cleaned
}

/** The parsed body of a 403 (its §7 reason names the token's role); undefined for anything else. */
function errorBodyOf(entry: ExchangeEntry): unknown {
  const { status, content } = entry.response
  if (status !== 403 || content.text === undefined || content.encoding === 'base64') return undefined
  try {
    return JSON.parse(content.text) as unknown
  } catch {
    return undefined
  }
}
