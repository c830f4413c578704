import { DEFAULT_HOST, hostWarning, listenErrorMessage, normalizeHost } from '../../proxy/commands/listen-address.js'
import { waitForStop } from '../../proxy/commands/wait-for-stop.js'
import {
  fuzzMutants,
  mutants,
  serverModes,
  startReferenceServer,
  type ServerMode,
} from '../../reference-server/index.js'
import type { Screen } from '../model/reporter.js'
import { EXIT } from '../shared/exit-codes.js'
import { processScreen } from '../api/screen.js'

export interface ServeOptions {
  port: number
  host?: string
  mode: ServerMode
  mutant?: string
  /** Stops the server (tests); by default SIGINT or SIGTERM does. */
  signal?: AbortSignal
}

/**
 * `fitconform serve`: the reference server until SIGINT/SIGTERM, on 127.0.0.1 and a free port unless
 * told. Its demo tokens are public by design. Exit 0; 2 for a bad mode or mutant, or an address it cannot listen on.
 */
export async function serveCommand(options: ServeOptions, screen: Screen = processScreen()): Promise<number> {
  if (!serverModes.includes(options.mode)) {
    screen.err(`unknown --mode "${options.mode}"; modes: ${serverModes.join(', ')}\n`)
    return EXIT.usage
  }
  if (options.mutant && ![...mutants, ...fuzzMutants].some((mutant) => mutant.name === options.mutant)) {
    screen.err(`unknown --mutant "${options.mutant}"; \`fitconform serve --list-mutants\` lists them\n`)
    return EXIT.usage
  }
  const host = normalizeHost(options.host ?? DEFAULT_HOST)
  const warning = hostWarning(host)
  if (warning !== undefined) screen.err(`${warning}\n`)
  let server
  try {
    server = await startReferenceServer({
      port: options.port,
      host,
      mode: options.mode,
      mutant: options.mutant,
    })
  } catch (error) {
    screen.err(
      `error: ${listenErrorMessage(error, { host, port: options.port }) ?? `cannot start the reference server: ${(error as Error).message}`}\n`,
    )
    return EXIT.usage
  }
  const { tokens } = server
  screen.out(
    [
      `fitconform reference server (${options.mode}${options.mutant ? `, mutant ${options.mutant}` : ''}) listening on ${server.url}`,
      'Demo tokens (public, for this server only):',
      `  --token ${tokens.token} --other-token ${tokens.otherToken} --revoked-token ${tokens.revokedToken} --revoked-delete-token ${tokens.revokedDeleteToken} --limited-token ${tokens.limitedToken}`,
      '',
    ].join('\n'),
  )
  await waitForStop(options.signal)
  await server.close()
  return EXIT.ok
}

export function listMutants(screen: Screen = processScreen()): number {
  for (const mutant of mutants)
    screen.out(`${mutant.name.padEnd(40)} ${mutant.rule.padEnd(32)} ${mutant.description}\n`)
  for (const mutant of fuzzMutants)
    screen.out(`${mutant.name.padEnd(40)} ${mutant.rule.padEnd(32)} (fuzz-only) ${mutant.description}\n`)
  return EXIT.ok
}
