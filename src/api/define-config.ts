import type { TokenRole } from '../model/scenario.js'

/**
 * The settings of `fitconform.config.ts` (or `.yaml`): the same keys, with the same meaning as the
 * flags; flags win over environment variables, which win over the file.
 */
export interface FitconformConfig {
  /** The server under test; may carry a path prefix. */
  baseUrl?: string
  /** Tokens by role; prefer environment variables (FITCONFORM_TOKEN, ...) to keep secrets out of files. */
  tokens?: Partial<Record<TokenRole, string>>
  /** What the suite sends where the spec gives no value (§2.7). */
  values?: Partial<
    Record<'activityType' | 'otherActivityType' | 'equipment' | 'athleteType' | 'otherAthleteType', string>
  >
  /** Per-request timeout in milliseconds. */
  timeout?: number
  concurrency?: number
  /** Comma-separated reporters, as `--reporter`. */
  reporter?: string
  outputDir?: string
  strict?: boolean
}

/**
 * Types a config file; returns it unchanged.
 * @example export default defineConfig({ baseUrl: 'https://staging.example.com', timeout: 5000 })
 */
export function defineConfig(config: FitconformConfig): FitconformConfig {
  return config
}
