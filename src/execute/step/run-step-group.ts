import type { ParallelBranch, Step } from '../../model/scenario.js'
import type { StepResult } from '../../model/result.js'
import type { Park } from '../../shared/worker-pool.js'
import type { RunContext } from '../run-context.js'
import { runStep } from './run-step.js'
import type { PollingBudget } from './step-polling.js'
import type { ScenarioState } from './step-resources.js'

export interface GroupOutcome {
  /** One result per request sent, in the order the group is written (a repeated branch's copies by index). */
  readonly results: readonly StepResult[]
  /** Set when a step of the group could not be sent for a reason that skips the scenario. */
  readonly skipReason?: string
}

/**
 * Sends every step of a `parallel:` group at once and waits for all of them. Each copy runs with
 * the variables captured before the group (plus `index` in a repeated branch), so no copy sees
 * another's answer; once all are done, the captures land in the scenario: a value per branch, or a
 * list in `index` order for a repeated branch, whatever order the answers came in. Every create of
 * the group is handed to the scenario as any step's is (ownership gate, cleanup ledger).
 */
export async function runStepGroup(
  group: Step,
  state: ScenarioState,
  context: RunContext,
  polling?: PollingBudget,
): Promise<GroupOutcome> {
  const copies = (group.parallel ?? []).flatMap((branch) =>
    Array.from({ length: branch.repeat ?? 1 }, (_, index) => ({ branch, index })),
  )
  const groupContext: RunContext = context.park ? { ...context, park: shareOnePark(context.park) } : context
  const done = await Promise.all(
    copies.map(async ({ branch, index }) => {
      const own: ScenarioState = {
        variables: { ...state.variables, ...(branch.repeat !== undefined ? { index } : {}) },
        record: state.record,
      }
      const outcome = await runStep(branch.step, own, groupContext, polling)
      return { branch, index, outcome, variables: own.variables }
    }),
  )
  for (const branch of group.parallel ?? []) {
    const mine = done.filter((copy) => copy.branch === branch)
    for (const name of Object.keys(branch.step.capture)) {
      state.variables[name] =
        branch.repeat !== undefined ? mine.map((copy) => copy.variables[name]) : mine[0]?.variables[name]
    }
  }
  const skipReason = done.find((copy) => copy.outcome.skipReason)?.outcome.skipReason
  return {
    results: done.map(({ branch, index, outcome }) =>
      branch.repeat !== undefined ? { ...outcome.result, name: copyName(branch, index) } : outcome.result,
    ),
    skipReason,
  }
}

function copyName(branch: ParallelBranch, index: number): string {
  return `${branch.step.name} (${index + 1} of ${branch.repeat})`
}

/**
 * The scenario holds one concurrency slot, however many of its requests are in flight. When several
 * of them wait at once (a write held by the write gate), the slot is given up once, by the first,
 * and taken back once, when the last is done waiting: parking each would hand out the one slot
 * several times, and taking it back several times could leave the group's copies holding every slot
 * while one of them still waits for a slot to resume.
 */
export function shareOnePark(park: Park): Park {
  let current: { waiting: number; allDone: () => void; slotBack: Promise<void> } | undefined
  return async (wait) => {
    if (!current) {
      let allDone!: () => void
      const everyoneDone = new Promise<void>((resolve) => (allDone = resolve))
      current = { waiting: 0, allDone, slotBack: park(() => everyoneDone) }
    }
    const parked = current
    parked.waiting++
    try {
      return await wait()
    } finally {
      parked.waiting--
      if (parked.waiting === 0) {
        current = undefined
        parked.allDone()
      }
      await parked.slotBack
    }
  }
}
