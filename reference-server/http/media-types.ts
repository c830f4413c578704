// Media types (§1 rule 3): each representation has `application/vnd.com.service.<TypeName>+json`.
import type { ModeBehaviour } from '../modes.js'

export type RepresentationName =
  | 'User'
  | 'FitnessActivityFeed'
  | 'FitnessActivity'
  | 'NewFitnessActivity'
  | 'LiveFitnessActivityUpdate'
  | 'Profile'
  | 'ErrorMessage'

/** Human-readable error bodies (§7 rule 5). */
export const textPlain = 'text/plain; charset=utf-8'

export function mediaTypeOf(name: RepresentationName): string {
  return `application/vnd.com.service.${name}+json`
}

/** The Content-Type to send; the quirky mode adds a charset parameter everywhere. */
export function contentTypeOf(name: RepresentationName, behaviour: ModeBehaviour): string {
  return behaviour.quirks ? `${mediaTypeOf(name)}; charset=utf-8` : mediaTypeOf(name)
}

/** `type/subtype` in lower case without parameters, or undefined when there is no header. */
export function essenceOf(header: string | undefined): string | undefined {
  const essence = header?.split(';')[0]?.trim().toLowerCase()
  return essence ? essence : undefined
}

/** Media types compare case-insensitively and without parameters (RFC 9110 §8.3.1). */
export function hasMediaType(header: string | undefined, name: RepresentationName): boolean {
  return essenceOf(header) === mediaTypeOf(name).toLowerCase()
}
