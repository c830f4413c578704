// The request-target (RFC 9112 §3.2) as a URL. `new URL(target, base)` alone would read an
// origin-form `//x/user` as a network path with host x, so origin-form is appended to a fixed base.
const base = 'http://target.invalid'

/** The parsed target, or undefined when it is not a URL at all (answered 400). */
export function parseRequestTarget(target: string): URL | undefined {
  try {
    if (target.startsWith('/')) return new URL(`${base}${target}`)
    if (/^https?:\/\//i.test(target)) return new URL(target)
    return new URL(`${base}/${target}`) // `*` and other odd forms: never a known path, so 404
  } catch {
    return undefined
  }
}
