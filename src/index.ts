// The public API of the `fitconform` package (package.json "exports"): what a script, a test runner or a
// typed config file may import. Everything else under src/ is internal and may change between versions.
export { run, type RunOptions, type RunOutcome } from './api/run.js'
export { defineConfig, type FitconformConfig } from './api/define-config.js'
export { loadSuites, type LoadOutcome } from './load/load-suites.js'
export { createReporters, BUILTIN_REPORTERS, type ReporterContext } from './report/registry.js'
export type { Reporter, RunPlanView, ScenarioView, Screen } from './model/reporter.js'
export type {
  AssertionResult,
  CleanupSummary,
  RecordedRequest,
  RecordedResponse,
  RunResult,
  RunSummary,
  ScenarioResult,
  ScenarioStatus,
  StepResult,
  StepStatus,
} from './model/result.js'
export type { Rule, Scenario, Step, TokenRole } from './model/scenario.js'
export type { Diagnostic, DiagnosticKind, ErrorCode, SourceRef } from './model/diagnostic.js'
export type { Shard } from './plan/plan-run.js'
