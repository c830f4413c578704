import type { TokenRole } from '../model/scenario.js'
import type { ConformanceTarget } from '../session/run-session.js'
import type { ServerMode } from '../../reference-server/index.js'

export interface EmbeddedTarget {
  readonly target: ConformanceTarget
  /** Where the server listens (loopback, a free port). */
  readonly url: string
  close(): Promise<void>
}

/**
 * `run`, `fuzz` and the library's `run()` without a base URL: the embedded reference server, in this
 * process, with its public demo tokens in every role. Loaded only here: a run against --base-url never
 * needs the reference server's modules.
 */
export async function startEmbeddedTarget(
  variant: { readonly mode?: ServerMode; readonly mutant?: string } = {},
): Promise<EmbeddedTarget> {
  const { startReferenceServer } = await import('../../reference-server/index.js')
  const server = await startReferenceServer(variant)
  const tokens: Record<TokenRole, string> = {
    token: server.tokens.token,
    'other-token': server.tokens.otherToken,
    'revoked-token': server.tokens.revokedToken,
    'revoked-delete-token': server.tokens.revokedDeleteToken,
    'limited-token': server.tokens.limitedToken,
  }
  const named = variant.mutant
    ? ` ${variant.mode ?? 'reference'} mode, mutant ${variant.mutant}`
    : variant.mode && variant.mode !== 'reference'
      ? ` ${variant.mode} mode`
      : ''
  return {
    target: { baseUrl: new URL(server.url), tokens, label: `embedded reference server${named} (${server.url})` },
    url: server.url,
    close: () => server.close(),
  }
}
