/** `--reporter` when none is given. A module of its own so `--help` does not load every reporter. */
export const DEFAULT_REPORTERS = 'console,json,junit'
