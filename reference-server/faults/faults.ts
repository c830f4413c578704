// Fault injection for mutants (mutants.ts): the single place that knows which mutant is active,
// and the one helper for bodies Node's http module refuses to send.
import type { ServerResponse } from 'node:http'
import { fuzzMutantCatalogue, type FuzzMutantName } from './fuzz-mutants.js'
import { mutantCatalogue, type MutantName } from './mutants.js'

export interface Faults {
  /** The active mutant, or undefined on a conforming server. */
  readonly active: MutantName | FuzzMutantName | undefined
  /** True when the named mutant is active: `if (faults.is('has-map-boolean')) …`. */
  is(name: MutantName | FuzzMutantName): boolean
}

/** Looks the mutant up by name; an unknown name throws an Error listing the known ones. */
export function createFaults(name: string | undefined): Faults {
  if (name === undefined) return { active: undefined, is: () => false }
  // The fuzz-only mutants (fuzz-mutants.ts) are served the same way, but only `selftest --fuzz` runs them.
  const known = [...mutantCatalogue, ...fuzzMutantCatalogue].find((mutant) => mutant.name === name)
  if (!known) {
    const names = [...mutantCatalogue, ...fuzzMutantCatalogue].map((mutant) => mutant.name).join(', ')
    throw new Error(`unknown mutant "${name}"; known mutants: ${names}`)
  }
  const active: MutantName | FuzzMutantName = known.name
  return { active, is: (candidate) => candidate === active }
}

/**
 * Ends the response, then writes `bytes` straight to the socket. Node silently drops a body on
 * HEAD, 204 and 304 responses, so a mutant that must put one on the wire writes it underneath.
 *
 * Keep-alive: the stray bytes would be read as the start of the next response on the same
 * connection, so this marks the response `Connection: close` first; Node then closes the socket
 * once everything, stray bytes included, is flushed. Socket writes keep their order, and
 * `res.end()` has queued the head before we write, so the bytes always follow the headers.
 * Call it only before any header is sent.
 */
export function endWithRawBytes(res: ServerResponse, body: Buffer | undefined, bytes: Buffer): void {
  res.setHeader('Connection', 'close')
  const socket = res.socket
  if (body) res.end(body)
  else res.end()
  if (socket && !socket.destroyed) socket.write(bytes)
}
