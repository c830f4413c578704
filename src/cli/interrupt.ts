import type { Screen } from '../model/reporter.js'

export interface Interrupt {
  /** Aborted on the first SIGINT/SIGTERM: no new step starts, and cleanup still runs. */
  readonly signal: AbortSignal
  /** Stops listening (the command has finished). */
  dispose(): void
}

/**
 * `run` and `fuzz`: the first SIGINT or SIGTERM stops after the work in flight and lets cleanup undo
 * what the command created; a second one quits at once (exit 130, the shell's code for SIGINT).
 */
export function listenForInterrupt(screen: Screen, inFlight: string): Interrupt {
  const controller = new AbortController()
  const onSignal = (name: string): void => {
    if (controller.signal.aborted) process.exit(130)
    screen.err(
      `\n${name}: stopping after ${inFlight}; cleaning up what this run created (press again to quit at once)\n`,
    )
    controller.abort()
  }
  const onSigint = (): void => onSignal('SIGINT')
  const onSigterm = (): void => onSignal('SIGTERM')
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigterm)
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint)
      process.off('SIGTERM', onSigterm)
    },
  }
}
