import type { Finding } from '../../../src/model/exchange.js'
import type { ExchangeView } from '../exchange-view.js'
import { ConditionalHistory } from './conditional-history.js'
import { ItemActivityRelation } from './item-activity.js'
import { PageChain } from './page-chain.js'

export interface RelationLimits {
  /** Activities (and their items) remembered, the most recently seen first. */
  readonly maxActivities: number
  /** Short feed pages remembered until their next page is read. */
  readonly maxPages: number
}

/**
 * Roughly 1 KiB an activity (an item's and an activity's values, a date or two): a few MiB in all,
 * whatever the length of the session.
 */
const DEFAULT_LIMITS: RelationLimits = { maxActivities: 4096, maxPages: 1024 }

/**
 * The relations between exchanges of one session (proxy or recording), judged where both sides
 * were seen. Each exchange is observed once, in the order the exchanges completed; the findings
 * belong to the exchange that completed the relation.
 */
export class ObservedRelations {
  readonly #relations: readonly { observe(view: ExchangeView): Finding[] }[]

  constructor(limits: RelationLimits = DEFAULT_LIMITS) {
    this.#relations = [
      new ItemActivityRelation(limits.maxActivities),
      new ConditionalHistory(limits.maxActivities),
      new PageChain(limits.maxPages),
    ]
  }

  observe(view: ExchangeView): Finding[] {
    return this.#relations.flatMap((relation) => relation.observe(view))
  }
}
