// Whether a run surveys the account when neither --survey nor --no-survey says: the survey belongs to
// a run of the whole suite, so a run narrowed to some scenarios (a path, --grep, --tag, --shard) runs
// just those. The CLI and the library's run() decide by this one rule.

export interface RunNarrowing {
  readonly paths: readonly string[]
  readonly grep?: unknown
  readonly tags: readonly string[]
  readonly shard?: unknown
}

export function surveysByDefault(run: RunNarrowing): boolean {
  return run.paths.length === 0 && run.grep === undefined && run.tags.length === 0 && run.shard === undefined
}
