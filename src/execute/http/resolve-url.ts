/** Where a request goes: always under the base URL, so the token never reaches another origin. */
export interface ResolvedUrl {
  readonly url: string
  /** Set when an absolute URL on another origin was moved onto the base URL (reported as a warning). */
  readonly rebasedFrom?: string
}

/**
 * Paths from scenarios (`/user`) and relative URIs the server returns resolve under the base URL's path prefix
 * (`https://host/api/v1` + `/user`); a URI that already carries the prefix is kept as it is.
 */
export function resolveUrl(target: string, base: URL, query: Readonly<Record<string, string>> = {}): ResolvedUrl {
  const prefix = base.pathname.replace(/\/+$/, '')
  let resolved: URL
  let rebasedFrom: string | undefined
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) {
    resolved = new URL(target, base)
    if (resolved.origin !== base.origin) {
      rebasedFrom = target
      resolved = new URL(underPrefix(resolved.pathname, prefix) + resolved.search, base.origin)
    }
  } else {
    const relative = new URL(target.startsWith('/') ? target : `/${target}`, 'http://placeholder.invalid')
    resolved = new URL(underPrefix(relative.pathname, prefix) + relative.search, base.origin)
  }
  for (const [name, value] of Object.entries(query)) resolved.searchParams.append(name, value)
  return { url: resolved.toString(), rebasedFrom }
}

function underPrefix(path: string, prefix: string): string {
  if (prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) return path
  return `${prefix}${path}`
}
