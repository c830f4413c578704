import { DEFAULT_REPORTERS } from '../report/default-reporters.js'

/**
 * The defaults of a run, one object for the library's run(), the CLI's options and its help text. Plain
 * values only: `--help` reads this module, so it imports nothing that loads the engine.
 */
export const RUN_DEFAULTS = {
  /** --reporter */
  reporters: DEFAULT_REPORTERS,
  /** --output-dir: report files and the cleanup ledger */
  outputDir: 'reports',
  /** --concurrency */
  concurrency: 4,
  /** --timeout, per request */
  timeoutMs: 10_000,
  /** --max-body-bytes (8 MiB) */
  maxBodyBytes: 8 * 1024 * 1024,
  /** --max-polling, all `eventually` steps of the run together */
  maxPollingSeconds: 60,
  /** --survey-max-activities */
  surveyMaxActivities: 2500,
} as const
