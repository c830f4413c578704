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

/** Why `listen()` failed, and what to do about it. */
export interface ListenProblem {
  readonly message: string
  readonly hint: string
}

/**
 * What a failed `listen()` means: "port N is in use" and the like, with what to do; undefined for an
 * error that is not about the address (the caller says what else failed). Commands print it and exit 2
 * (nothing was started).
 */
export function listenProblem(
  error: unknown,
  where: { readonly host: string; readonly port: number },
): ListenProblem | undefined {
  const code = (error as { code?: unknown } | null)?.code
  switch (code) {
    case 'EADDRINUSE':
      return {
        message: `port ${where.port} is in use`,
        hint: 'choose another with --port, or --port 0 for any free port',
      }
    case 'EACCES':
      return {
        message: `port ${where.port} needs privileges this process does not have`,
        hint: 'choose a port above 1023, or --port 0',
      }
    case 'EADDRNOTAVAIL':
      return {
        message: `${where.host} is not an address of this machine`,
        hint: `leave out --host to listen on ${DEFAULT_HOST}`,
      }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return {
        message: `--host ${where.host} does not resolve to an address of this machine`,
        hint: `name an address of this machine, or leave out --host to listen on ${DEFAULT_HOST}`,
      }
    case 'EINVAL':
      return {
        message: `cannot listen on ${where.host} port ${where.port}: not a usable address`,
        hint: `name an address of this machine, or leave out --host to listen on ${DEFAULT_HOST}`,
      }
    default:
      return undefined
  }
}

/** `listenProblem` as one line, for `serve`, which prints no Diagnostics. */
export function listenErrorMessage(
  error: unknown,
  where: { readonly host: string; readonly port: number },
): string | undefined {
  const problem = listenProblem(error, where)
  return problem === undefined ? undefined : `${problem.message}; ${problem.hint}`
}
