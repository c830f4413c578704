// The far-year days the fuzzer owns (suites/README.md keeps the suite's own days; these are free
// there). Fuzz runs are not concurrent with `fitconform run`, but a day owned by nobody else keeps a
// fuzz run's scoped feed reads exact even next to a killed run's leftovers of the suite.

/** September of `${run.farYear}`. */
export const FUZZ_MONTH = 9
/** Valid creates start on these days; every scoped read stays within them. */
export const FUZZ_DAYS = [14, 15, 16, 17, 18, 19, 20] as const
/** Bodies a server may accept or refuse (wrong types, extra fields …) are dated here, outside every scoped read. */
export const FUZZ_LOOSE_DAY = 24
