/**
 * What every proxy core needs and no proxy library should decide: which headers are hop-by-hop,
 * how a client path maps onto the target, and how raw header lists are handled.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1, plus the non-standard ones seen in the wild). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/**
 * Keeps the end-to-end headers of a raw `[name, value, name, value, …]` list in their order, drops the
 * hop-by-hop ones and those named by `Connection`, and the ones in `alsoDrop` (lower-case).
 */
export function endToEndHeaders(rawHeaders: readonly string[], alsoDrop: ReadonlySet<string> = NONE): string[] {
  return filterHeaders(rawHeaders, alsoDrop, NO_FLAGS).kept
}

/** What the forwarder needs to know of a request's headers (`upstreamRequestHead`). */
export const HAS_BODY = 1
const REQUEST_FLAGS: ReadonlyMap<string, number> = new Map([
  ['content-length', HAS_BODY],
  ['transfer-encoding', HAS_BODY],
])
/** Request headers a client sends to us that must not go on: `Host` is the target's, `Expect` is answered here. */
const DROP_FROM_REQUEST: ReadonlySet<string> = new Set(['host', 'expect'])

/**
 * A client request's headers as they go upstream (end-to-end ones, `Host` the target's), and `flags`:
 * HAS_BODY when it declares a body. One pass over the list
 * (node's `req.headers` object is never built).
 */
export function upstreamRequestHead(
  rawHeaders: readonly string[],
  host: string,
): { readonly headers: string[]; readonly flags: number } {
  const { kept, flags } = filterHeaders(rawHeaders, DROP_FROM_REQUEST, REQUEST_FLAGS)
  kept.push('host', host)
  return { headers: kept, flags }
}

const NO_FLAGS: ReadonlyMap<string, number> = new Map()

function filterHeaders(
  rawHeaders: readonly string[],
  alsoDrop: ReadonlySet<string>,
  flagsOf: ReadonlyMap<string, number>,
): { kept: string[]; flags: number } {
  // Twice an exchange on the forwarding thread: each name is lower-cased once, in one pass that also
  // reads the `Connection` header, when there is one.
  const lower = new Array<string>(rawHeaders.length >> 1)
  let named: Set<string> | undefined
  let flags = 0
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    lower[i >> 1] = name
    if (name === 'connection') named = connectionTokens(rawHeaders[i + 1] as string, named)
    flags |= flagsOf.get(name) ?? 0
  }
  const kept: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = lower[i >> 1] as string
    if (HOP_BY_HOP.has(name) || named?.has(name) === true || alsoDrop.has(name)) continue
    kept.push(rawHeaders[i] as string, rawHeaders[i + 1] as string)
  }
  return { kept, flags }
}

const NONE: ReadonlySet<string> = new Set()

/** The header names a `Connection` value lists (RFC 9110 §7.6.1), added to `tokens`. */
function connectionTokens(value: string, tokens = new Set<string>()): Set<string> {
  for (const token of value.split(',')) {
    const trimmed = token.trim().toLowerCase()
    if (trimmed !== '') tokens.add(trimmed)
  }
  return tokens
}

/** Base paths by target: read on both threads for every exchange, and a URL's getters are not cheap. */
const basePaths = new WeakMap<URL, string>()

/** The base path of a target URL without its trailing slash ('' for the root). */
function basePathOf(target: URL): string {
  let base = basePaths.get(target)
  if (base === undefined) basePaths.set(target, (base = target.pathname.replace(/\/+$/, '')))
  return base
}

/** Where a client request goes upstream, or why it cannot go anywhere (the proxy answers 400). */
export type UpstreamPath = { readonly path: string } | { readonly problem: string }

/**
 * The path (with query) to ask the upstream for. The client talks to the proxy as it would to
 * {base_url} (§1 rule 5: paths are relative to it), so the target's base path is put in front,
 * unless the client already sent it. Never throws: a request-target that cannot be mapped (an
 * absolute-form URL that does not parse, a byte no HTTP/1.1 path may hold) comes back as a problem.
 */
export function upstreamPathFor(target: URL, clientPath: string): UpstreamPath {
  const base = basePathOf(target)
  let relative = clientPath
  // absolute-form (RFC 9112 §3.2.2), as a client configured with us as a forward proxy sends: keep its path.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(clientPath)) {
    const absolute = URL.canParse(clientPath) ? new URL(clientPath) : undefined
    if (absolute === undefined)
      return { problem: 'the request-target is an absolute URL that does not parse (RFC 9112 §3.2.2)' }
    relative = `${absolute.pathname}${absolute.search}`
  }
  const path = relative.startsWith('/') ? relative : `/${relative}`
  // The bytes the upstream client accepts in a path (visible ASCII and obs-text), as RFC 9112 §3.2 allows.
  if (!/^[\x21-\xff]*$/.test(path))
    return { problem: 'the request-target holds a space or a control character (RFC 9112 §3.2)' }
  if (base === '' || path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`)) return { path }
  return { path: `${base}${path}` }
}

/** The path relative to {base_url}: the target's base path stripped (§1 rule 5). */
export function apiPathOf(target: URL, upstreamPath: string): string {
  const base = basePathOf(target)
  if (
    base !== '' &&
    (upstreamPath === base || upstreamPath.startsWith(`${base}/`) || upstreamPath.startsWith(`${base}?`))
  ) {
    const rest = upstreamPath.slice(base.length)
    return rest.startsWith('/') ? rest : `/${rest}`
  }
  return upstreamPath
}
