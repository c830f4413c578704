import { fuzzMutants, mutants, serverModes, startReferenceServer, type ServerMode } from '../../reference-server/index.js'
import type { Screen } from '../report/reporter.js'
import { EXIT } from './exit-codes.js'
import { processScreen } from './screen.js'

export interface ServeOptions {
  port: number
  mode: ServerMode
  mutant?: string
}

/** `fitconform serve`: the reference server until SIGINT/SIGTERM. Its demo tokens are public by design. */
export async function serveCommand(options: ServeOptions, screen: Screen = processScreen()): Promise<number> {
  if (!serverModes.includes(options.mode)) {
    screen.err(`unknown --mode "${options.mode}"; modes: ${serverModes.join(', ')}\n`)
    return EXIT.usage
  }
  if (options.mutant && ![...mutants, ...fuzzMutants].some((mutant) => mutant.name === options.mutant)) {
    screen.err(`unknown --mutant "${options.mutant}"; \`fitconform serve --list-mutants\` lists them\n`)
    return EXIT.usage
  }
  const server = await startReferenceServer({ port: options.port, mode: options.mode, ...(options.mutant ? { mutant: options.mutant } : {}) })
  const { tokens } = server
  screen.out(
    [
      `fitconform reference server (${options.mode}${options.mutant ? `, mutant ${options.mutant}` : ''}) listening on ${server.url}`,
      'Demo tokens (public, for this server only):',
      `  --token ${tokens.token} --other-token ${tokens.otherToken} --revoked-token ${tokens.revokedToken} --revoked-delete-token ${tokens.revokedDeleteToken} --limited-token ${tokens.limitedToken}`,
      '',
    ].join('\n'),
  )
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await server.close()
  return EXIT.ok
}

export function listMutants(screen: Screen = processScreen()): number {
  for (const mutant of mutants) screen.out(`${mutant.name.padEnd(40)} ${mutant.rule.padEnd(32)} ${mutant.description}\n`)
  for (const mutant of fuzzMutants) screen.out(`${mutant.name.padEnd(40)} ${mutant.rule.padEnd(32)} (fuzz-only) ${mutant.description}\n`)
  return EXIT.ok
}
