// The embedded reference server: an independent, in-memory, conforming implementation of every
// endpoint of §4, in three conforming modes and with deliberately broken mutants for self-tests.
// It imports nothing from src/ or proxy/ and no npm package.
import type { AddressInfo } from 'node:net'
import type { ServerContext } from './call.js'
import { demoTokens, type DemoTokens } from './data/demo-accounts.js'
import { createFaults } from './faults/faults.js'
import { createHttpServer, type InternalErrorListener } from './http/http-server.js'
import { behaviourOf, isServerMode, serverModes, type ModeBehaviour, type ServerMode } from './modes.js'
import { realisticHistory } from './data/realistic-history.js'
import { seedActivities, type ActivityDraft } from './data/seed.js'
import { fuzzMutantCatalogue } from './faults/fuzz-mutants.js'
import { mutantCatalogue, type MutantDefinition } from './faults/mutants.js'
import { Store, type Clock } from './store/store.js'

export type { DemoTokens } from './data/demo-accounts.js'
export type { MutantDefinition } from './faults/mutants.js'
export type { ServerMode } from './modes.js'
export { serverModes } from './modes.js'

/** Every mutant (`--mutant <name>`), each breaking one rule id of suites/rules.yaml. */
export const mutants: readonly MutantDefinition[] = mutantCatalogue

/** Mutants only the fuzzer is expected to find (`selftest --fuzz`); outside the static suite's score. */
export const fuzzMutants: readonly MutantDefinition[] = fuzzMutantCatalogue

export interface ReferenceServerOptions {
  /** reference (default), quirky (the §2.2 irregularities), other-choices (the other open branches) or realistic (years of history). */
  mode?: ServerMode
  /** A mutant name from `mutants`; an unknown name throws. */
  mutant?: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Serve under a path prefix, e.g. '/api/v1' (default: none); `url` then ends with it. */
  basePath?: string
  /** Clock in epoch milliseconds (default Date.now): modification times, Last-Modified, Date. */
  now?: () => number
  /** realistic mode: how many activities the main demo user holds (default REALISTIC_HISTORY_SIZE). */
  historySize?: number
  /** Called with unexpected exceptions (answered 500); default: printed to stderr. */
  onInternalError?: (error: unknown) => void
}

export interface RunningReferenceServer {
  /** `http://127.0.0.1:<port>` plus the base path if any, no trailing slash: the spec's {base_url}. */
  url: string
  tokens: DemoTokens
  mode: ServerMode
  mutant?: string
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>
}

/**
 * Starts a server with its own fresh store.
 * @example
 * const server = await startReferenceServer({ mode: 'quirky' })
 * await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${server.tokens.token}` } })
 * await server.close()
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<RunningReferenceServer> {
  const mode = options.mode ?? 'reference'
  if (!isServerMode(mode)) throw new Error(`unknown mode "${String(mode)}"; modes: ${serverModes.join(', ')}`)
  const faults = createFaults(options.mutant)
  const host = options.host ?? '127.0.0.1'
  const now: Clock = options.now ?? Date.now
  const behaviour = behaviourOf(mode)
  const basePath = normalizeBasePath(options.basePath ?? '')
  let origin = ''
  const context: ServerContext = {
    mode,
    behaviour,
    store: new Store(behaviour.idStyle, now, seedOf(behaviour, options.historySize)),
    faults,
    now,
    basePath,
    ownOrigin: () => origin,
  }
  const server = createHttpServer(context, options.onInternalError ?? printInternalError)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  origin = `http://${formatHost(host)}:${(server.address() as AddressInfo).port}`

  const running: RunningReferenceServer = {
    url: `${origin}${basePath}`,
    tokens: { ...demoTokens },
    mode,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // close() alone waits for idle keep-alive sockets to time out.
        server.closeAllConnections()
      }),
  }
  if (faults.active !== undefined) running.mutant = faults.active
  return running
}

function seedOf(behaviour: ModeBehaviour, historySize: number | undefined): ActivityDraft[] {
  return behaviour.history === 'realistic' ? realisticHistory(historySize) : seedActivities()
}

/** '' or '/segment…' without a trailing slash; anything else is a caller error. */
function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '')
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed))
    throw new Error(`basePath must look like "/api/v1", not "${basePath}"`)
  return trimmed
}

function formatHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

const printInternalError: InternalErrorListener = (error) => {
  process.stderr.write(
    `fitconform reference server: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
}
