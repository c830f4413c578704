// Totals derived from a route, for activities created or extended through the API (§2.4, §2.5),
// which carry points but no totals. Units as the seed uses them: metres and seconds (§2.7 open).
import type { PathPoint } from './model.js'

const earthRadiusMetres = 6_371_000

/** Sum of great-circle (haversine) distances between consecutive points, in metres, one decimal. */
export function pathDistance(path: readonly PathPoint[]): number {
  let total = 0
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]
    const b = path[i]
    if (a && b) total += haversine(a, b)
  }
  return roundTenth(total)
}

/** Sum of the rises between consecutive points, in metres, one decimal. */
export function pathClimb(path: readonly PathPoint[]): number {
  let climb = 0
  for (let i = 1; i < path.length; i++) {
    const rise = (path[i]?.altitude ?? 0) - (path[i - 1]?.altitude ?? 0)
    if (rise > 0) climb += rise
  }
  return roundTenth(climb)
}

/** The latest point offset, i.e. how long the route took (seconds), or 0 without points. */
export function pathDuration(path: readonly PathPoint[]): number {
  return path.reduce((latest, point) => Math.max(latest, point.timestamp), 0)
}

export function roundTenth(value: number): number {
  return Math.round(value * 10) / 10
}

function haversine(a: PathPoint, b: PathPoint): number {
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180
  const dLat = toRadians(b.latitude - a.latitude)
  const dLon = toRadians(b.longitude - a.longitude)
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLon / 2) ** 2
  return 2 * earthRadiusMetres * Math.asin(Math.min(1, Math.sqrt(h)))
}
