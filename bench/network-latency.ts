/**
 * The suite on a real network (issue 30 point 3): the default suite against the reference server (its
 * own process, fresh store per run) behind a pass-through that holds every chunk 50 ms each way, a
 * 100 ms round trip, at `--concurrency` 1, 4 and 16, with the run's critical path beside it, computed
 * as for the `concurrency` rows (bench/concurrency-scaling.ts). Goal: `--concurrency 16` within 1.15×
 * of the critical path.
 */
import { pathToFileURL } from 'node:url'
import { startDelayingPassThrough } from './support/delaying-pass-through.js'
import { benchConcurrencyScaling } from './concurrency-scaling.js'
import type { Figure } from './support/figures.js'
import { startServerProcess } from './support/processes.js'

export const NETWORK_DELAY_MS = 50

export function benchNetworkLatency(): Promise<Figure[]> {
  return benchConcurrencyScaling({
    benchmark: 'network',
    latency: `${NETWORK_DELAY_MS} ms each way`,
    criticalPathLimit: 1.15,
    startServer: async () => {
      const server = await startServerProcess()
      const delayed = await startDelayingPassThrough({ target: server.url, delayMs: NETWORK_DELAY_MS })
      return {
        url: delayed.url,
        tokenFlags: server.tokenFlags,
        stop: async () => {
          await delayed.close()
          await server.stop()
        },
      }
    },
  })
}

// `node dist/bench/network-latency.js`: these rows alone.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { formatTable } = await import('./support/figures.js')
  const figures = await benchNetworkLatency()
  process.stdout.write(formatTable(figures) + '\n')
  for (const each of figures) if (each.note) process.stdout.write(`${each.name.trim()}: ${each.note}\n`)
}
