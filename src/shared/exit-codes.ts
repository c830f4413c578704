/** Exit codes, stated once: CI pipelines rely on them (README § Exit codes). */
export const EXIT = {
  /** Every scenario passed (warnings allowed). */
  ok: 0,
  /** A scenario failed, a cleanup failed, a reporter broke (other than the file system refusing its file), or --fail-on-skip saw a skip. */
  failed: 1,
  /**
   * Usage, config or scenario-file error, or an --output-dir that cannot be a folder: nothing was sent.
   * Also a report the file system refused at the end (a full disk): the user's to fix, as a bad --output-dir is.
   */
  usage: 2,
  /**
   * Before the first scenario: the server could not be reached, or GET /user with a main token did not answer 2xx in
   * time (the preflight).
   */
  unreachable: 3,
  /** SIGINT/SIGTERM: the run stopped early, after undoing what it had changed. */
  interrupted: 130,
} as const
