/** Resolves when the signal aborts, or (without one) on the first SIGINT or SIGTERM. */
export function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal !== undefined) {
      if (signal.aborted) resolve()
      else signal.addEventListener('abort', () => resolve(), { once: true })
      return
    }
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
