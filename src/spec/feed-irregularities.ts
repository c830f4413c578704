// The documented irregularities of feed items (§2.2, "Observed irregularities a builder must
// tolerate"): they are not schema errors, so the schema allows them and this file reports them.
import { describeValue } from '../shared/format-value.js'
import type { SchemaProblem } from '../validation/schema-problem.js'
import type { ExpectedGap } from '../validation/schema-walk.js'
import type { RepresentationName } from './representations.js'
import { isRecord } from '../shared/is-record.js'

const OPTIONAL_ITEM_FIELDS = ['source', 'entry_mode', 'has_map'] as const
const SHORT_ITEM_URI = /^\/activities\/[^/?#]+$/

export interface FeedIrregularities {
  irregularities: SchemaProblem[]
  /** True for an absent field that an irregularity already accounts for (start_time spelt startTime). */
  excuses(gap: ExpectedGap): boolean
  /** The irregularity rules looked for: all of them once one item was examined. */
  checkedRules: readonly string[]
}

const NONE: FeedIrregularities = { irregularities: [], excuses: () => false, checkedRules: [] }
const ITEM_IRREGULARITIES = ['IRREG-START-TIME-SPELLING', 'IRREG-ITEM-FIELDS-ABSENT', 'IRREG-ITEM-URI-FORM'] as const

/** The documented irregularities of a representation's body: only the feed has any (§2.2). */
export function findIrregularities(name: RepresentationName, body: unknown): FeedIrregularities {
  return name === 'FitnessActivityFeed' ? findFeedIrregularities(body) : NONE
}

/** The §2.2 irregularities of each item of a feed body; nothing for a body that is not a feed. */
function findFeedIrregularities(feed: unknown): FeedIrregularities {
  const irregularities: SchemaProblem[] = []
  const respelt = new Set<string>()
  let examined = false
  const items = isRecord(feed) && Array.isArray(feed.items) ? feed.items : []
  items.forEach((item: unknown, index) => {
    if (!isRecord(item)) return
    examined = true
    const pointer = `/items/${index}`
    if (Object.hasOwn(item, 'startTime') && !Object.hasOwn(item, 'start_time')) {
      respelt.add(pointer)
      irregularities.push({
        severity: 'irregularity',
        rule: 'IRREG-START-TIME-SPELLING',
        pointer: `${pointer}/startTime`,
        message: `${pointer} spells the start time "startTime" instead of "start_time"`,
      })
    }
    const absent = OPTIONAL_ITEM_FIELDS.filter((field) => !Object.hasOwn(item, field))
    if (absent.length > 0) {
      irregularities.push({
        severity: 'irregularity',
        rule: 'IRREG-ITEM-FIELDS-ABSENT',
        pointer,
        message: `${pointer} lacks ${absent.length > 1 ? 'the fields' : 'the field'} ${andList(absent.map((f) => `"${f}"`))}`,
      })
    }
    if (typeof item.uri === 'string' && SHORT_ITEM_URI.test(item.uri)) {
      irregularities.push({
        severity: 'irregularity',
        rule: 'IRREG-ITEM-URI-FORM',
        pointer: `${pointer}/uri`,
        message: `${pointer}/uri has the form /activities/<id> rather than /fitnessActivities/<id>, found ${describeValue(item.uri)}`,
      })
    }
  })
  return {
    irregularities,
    excuses: (gap) => gap.field === 'start_time' && respelt.has(gap.pointer),
    checkedRules: examined ? ITEM_IRREGULARITIES : [],
  }
}

function andList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`
}
