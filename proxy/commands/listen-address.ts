/**
 * Where `proxy`, `mock` and `serve` listen, and what they say when they cannot: one helper, so the
 * three commands print the same warning and the same errors (issue 17: `--host`; issue 13: "port N is
 * in use" is exit 2 for every command that listens).
 */

/** Loopback only unless the user asks: the traffic carries tokens. */
export const DEFAULT_HOST = '127.0.0.1'

/** `--host` value as `listen()` takes it: `[::1]` (as written in URLs) becomes `::1`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim()
  return trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed
}

/** The warning to print before listening on anything but the default address, or undefined. */
export function hostWarning(host: string): string | undefined {
  if (normalizeHost(host) === DEFAULT_HOST) return undefined
  return `warning: listening on ${host}, not ${DEFAULT_HOST}: traffic with tokens will be reachable from the network (whoever can reach ${host} can use and read it)`
}

/** `http://127.0.0.1:8080`, `http://[::1]:8080`; a wildcard address is shown as the loopback one that reaches it. */
export function listenUrl(scheme: 'http' | 'https', host: string, port: number): string {
  const bare = normalizeHost(host)
  const shown = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '::1' : bare
  return `${scheme}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`
}

/**
 * The one-line error for a failed `listen()`: "port N is in use" and the like, with what to do;
 * undefined for an error that is not about the address (the caller says what else failed). Commands
 * print it as `error: …` and exit 2 (nothing was started).
 */
export function listenErrorMessage(error: unknown, where: { readonly host: string; readonly port: number }): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  switch (code) {
    case 'EADDRINUSE':
      return `port ${where.port} is in use; choose another with --port, or --port 0 for any free port`
    case 'EACCES':
      return `port ${where.port} needs privileges this process does not have; choose a port above 1023, or --port 0`
    case 'EADDRNOTAVAIL':
      return `${where.host} is not an address of this machine; leave out --host to listen on ${DEFAULT_HOST}`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `--host ${where.host} does not resolve to an address of this machine`
    case 'EINVAL':
      return `cannot listen on ${where.host} port ${where.port}: not a usable address`
    default:
      return undefined
  }
}
