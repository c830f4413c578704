// Values that some mutants keep beside the real data: what an edit wrongly applied to a
// non-editable field (§4 rule 7). Keyed by the activity record, so each server's store keeps its own.
import type { Activity } from '../store/model.js'

export interface ShownOverrides {
  uri?: unknown
  userID?: unknown
  previous?: unknown
  comments?: unknown
}

const overrides = new WeakMap<Activity, ShownOverrides>()

export function overridesOf(activity: Activity): ShownOverrides | undefined {
  return overrides.get(activity)
}

export function overrideShown(activity: Activity, values: ShownOverrides): void {
  overrides.set(activity, { ...overrides.get(activity), ...values })
}
