/** Exit codes, stated once: CI pipelines rely on them (README § Exit codes). */
export const EXIT = {
  /** Every scenario passed (warnings allowed). */
  ok: 0,
  /** A scenario failed, a cleanup failed, a reporter broke, or --fail-on-skip saw a skip. */
  failed: 1,
  /** Usage, config or scenario-file error: nothing was sent. */
  usage: 2,
  /** The server could not be reached at all before the first scenario. */
  unreachable: 3,
} as const
