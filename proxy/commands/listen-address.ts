/**
 * Where `proxy`, `mock` and `serve` listen, and what they say when they cannot: one helper, so the
 * three commands print the same warning (`--host`) and the same errors ("port N is in use" is exit 2 for
 * every command that listens).
 */

import { isIP } from 'node:net'
import { DEFAULT_HOST } from '../forward/proxy-defaults.js'
import { normalizeHost } from '../forward/proxy-settings.js'

/** Loopback only unless the user asks: the traffic carries tokens. */
export { DEFAULT_HOST, normalizeHost }

/**
 * The warning to print before listening on an address other machines may reach, or undefined. Other
 * loopback addresses (127.0.0.2, ::1) stay on this machine, so they get none: the warning would be false.
 */
export function hostWarning(host: string): string | undefined {
  if (isLoopbackHost(normalizeHost(host))) return undefined
  return `warning: listening on ${host}, not on loopback: traffic with tokens will be reachable from the network (whoever can reach ${host} can use and read it)`
}

/** 127.0.0.0/8, ::1 and localhost: the addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return isIP(host) === 6 && /^(0{0,4}:){2,7}0{0,3}1$/.test(host.replace(/^::/, '0::'))
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
export function listenErrorMessage(
  error: unknown,
  where: { readonly host: string; readonly port: number },
): string | undefined {
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
