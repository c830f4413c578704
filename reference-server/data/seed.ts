// Deterministic seed data: the same activities, times and notes on every run, so suites and docs
// can rely on them. Dates are fixed (not relative to today) for the same reason; they all lie
// before the first test run, so every seeded activity is "finished" and none is in the future.
import { parseIsoDate } from '../representations/calendar.js'
import { roundTenth } from '../store/geo.js'
import type { Activity, PathPoint, UserKey } from '../store/model.js'
import { createRandom, pickOne, randomInt } from './prng.js'

export type ActivityDraft = Omit<Activity, 'id' | 'seq'>

interface Kind {
  type: string
  equipment: readonly string[]
  /** Metres, min and max. */
  distance: readonly [number, number]
  /** Metres per second, min and max. */
  speed: readonly [number, number]
  /** Metres of climb per kilometre, min and max. */
  climbPerKm: readonly [number, number]
  /** Equipment for which there is no route (indoor). */
  indoor: readonly string[]
}

const kinds: readonly Kind[] = [
  {
    type: 'Running',
    equipment: ['None', 'None', 'Treadmill'],
    distance: [3000, 21100],
    speed: [2.6, 3.8],
    climbPerKm: [0, 15],
    indoor: ['Treadmill'],
  },
  { type: 'Running', equipment: ['None'], distance: [5000, 12000], speed: [2.8, 3.4], climbPerKm: [2, 10], indoor: [] },
  {
    type: 'Cycling',
    equipment: ['None', 'Stationary Bike'],
    distance: [10000, 80000],
    speed: [5.5, 9],
    climbPerKm: [0, 20],
    indoor: ['Stationary Bike'],
  },
  { type: 'Walking', equipment: ['None'], distance: [2000, 8000], speed: [1.2, 1.6], climbPerKm: [0, 10], indoor: [] },
  {
    type: 'Swimming',
    equipment: ['None'],
    distance: [500, 3000],
    speed: [0.6, 1],
    climbPerKm: [0, 0],
    indoor: ['None'],
  },
  { type: 'Hiking', equipment: ['None'], distance: [5000, 18000], speed: [0.9, 1.3], climbPerKm: [30, 90], indoor: [] },
  {
    type: 'Rowing',
    equipment: ['Row Machine', 'None'],
    distance: [2000, 10000],
    speed: [3, 4.5],
    climbPerKm: [0, 0],
    indoor: ['Row Machine'],
  },
]

const apiSources = ['RunKeeper', 'Garmin Connect', 'Polar Flow', 'Wahoo Fitness']
const noteTexts = [
  'Easy pace along the river',
  'Intervals: 6 x 800 m',
  'Felt strong today',
  'Windy, legs heavy',
  'Recovery session',
  'New shoes',
]

const homes: Record<UserKey, { latitude: number; longitude: number; altitude: number }> = {
  alice: { latitude: 45.764, longitude: 4.8357, altitude: 170 },
  bob: { latitude: 53.8008, longitude: -1.5491, altitude: 60 },
  carol: { latitude: 59.9139, longitude: 10.7522, altitude: 20 },
  dave: { latitude: 41.1579, longitude: -8.6291, altitude: 90 },
}

/** Who gets how many activities in which window (inclusive dates). */
const plan: readonly { user: UserKey; count: number; from: string; to: string }[] = [
  { user: 'alice', count: 4, from: '2025-11-01', to: '2025-12-31' },
  { user: 'alice', count: 58, from: '2026-01-01', to: '2026-10-31' },
  { user: 'bob', count: 2, from: '2025-11-01', to: '2025-12-31' },
  { user: 'bob', count: 10, from: '2026-01-01', to: '2026-10-31' },
]

// Nothing in the seed is modified after this, so a fresh server's feeds are older than any test run.
const latestModification = Date.UTC(2026, 9, 31, 23, 59, 59)

/** The seed activities, oldest first (so ids grow with start time). */
export function seedActivities(): ActivityDraft[] {
  const random = createRandom(20260101)
  const drafts: ActivityDraft[] = []
  for (const { user, count, from, to } of plan) {
    const first = parseIsoDate(from) ?? 0
    const days = Math.round(((parseIsoDate(to) ?? 0) - first) / 86_400_000)
    for (let i = 0; i < count; i++) {
      const startTime = first + randomInt(random, 0, days) * 86_400_000 + randomInt(random, 6 * 60, 20 * 60) * 60_000
      drafts.push(seedActivity(random, user, startTime))
    }
  }
  return drafts.sort((a, b) => a.startTime - b.startTime)
}

function seedActivity(random: () => number, owner: UserKey, startTime: number): ActivityDraft {
  const kind = pickOne(random, kinds)
  const equipment = pickOne(random, kind.equipment)
  const totalDistance = roundTenth(kind.distance[0] + random() * (kind.distance[1] - kind.distance[0]))
  const duration = Math.round(totalDistance / (kind.speed[0] + random() * (kind.speed[1] - kind.speed[0])))
  const totalClimb = roundTenth(
    (totalDistance / 1000) * (kind.climbPerKm[0] + random() * (kind.climbPerKm[1] - kind.climbPerKm[0])),
  )
  const entryMode = random() < 0.2 ? 'Web' : 'API'
  // Indoor sessions and manual web entries have no route, hence has_map "false" (§2.3).
  const hasRoute = entryMode === 'API' && !kind.indoor.includes(equipment)
  const path = hasRoute ? seedPath(random, owner, duration, totalClimb) : []
  const uploadedAt = startTime + duration * 1000 + randomInt(random, 5, 240) * 60_000
  const editedLater = random() < 0.15 ? randomInt(random, 1, 20) * 86_400_000 : 0
  const notes = random() < 0.35 ? pickOne(random, noteTexts) : undefined
  const draft: ActivityDraft = {
    owner,
    type: kind.type,
    equipment,
    startTime,
    totalDistance,
    duration,
    totalClimb,
    distance: [0, 0.5, 1].map((share) => ({
      timestamp: Math.round(duration * share),
      distance: roundTenth(totalDistance * share),
    })),
    heartRate: hasRoute
      ? [0, 0.5, 1].map((share) => ({
          timestamp: Math.round(duration * share),
          heart_rate: randomInt(random, 95, 175),
        }))
      : [],
    calories: [{ timestamp: duration, calories: Math.round(duration / 60) * randomInt(random, 6, 12) }],
    path,
    source: entryMode === 'Web' ? 'RunKeeper' : pickOne(random, apiSources),
    entryMode,
    modifiedAt: Math.floor(Math.min(uploadedAt + editedLater, latestModification) / 1000) * 1000,
  }
  if (notes !== undefined) draft.notes = notes
  return draft
}

function seedPath(random: () => number, owner: UserKey, duration: number, climb: number): PathPoint[] {
  const home = homes[owner]
  const count = randomInt(random, 4, 6)
  let { latitude, longitude } = home
  const points: PathPoint[] = []
  for (let i = 0; i < count; i++) {
    const type = i === 0 ? 'start' : i === count - 1 ? 'end' : 'gps'
    // A few points only sketch the route; altitudes stay near home, within the activity's climb.
    const altitude = roundTenth(home.altitude + random() * Math.min(climb, 400))
    points.push({
      timestamp: Math.round((duration * i) / (count - 1)),
      latitude: round6(latitude),
      longitude: round6(longitude),
      altitude,
      type,
    })
    latitude += (random() - 0.5) * 0.02
    longitude += (random() - 0.5) * 0.02
  }
  return points
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
