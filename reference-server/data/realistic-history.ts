// The "realistic" mode's seed: an account that looks like years of real use, so the account survey
// (src/spec/survey/) meets what real histories hold and small demo data never does: twelve years of
// activities, GPS paths of thousands of points, notes in many scripts, several activities on one
// day, web entries at midnight, and activities edited days after they were recorded. Deterministic
// (one PRNG seed), and all of it before the first test run, like seed.ts.
import { dayMs } from '../representations/calendar.js'
import { roundTenth } from '../store/geo.js'
import type { PathPoint, UserKey } from '../store/model.js'
import { createRandom, pickOne, randomInt } from './prng.js'
import type { ActivityDraft } from './seed.js'

/** How many activities the main demo user gets by default; the other user gets a tenth. */
const REALISTIC_HISTORY_SIZE = 240

const firstDay = Date.UTC(2014, 0, 1)
const lastDay = Date.UTC(2026, 9, 1)
// Nothing is modified after this, so the feed is older than any test run (seed.ts says why).
const latestModification = Date.UTC(2026, 9, 31, 23, 59, 59)

const notes = [
  'Morning loop by the river',
  'Läufchen am Fluss, schön kühl',
  'Footing tranquille, 5 × 1 km à allure seuil',
  'Утренняя пробежка вдоль набережной',
  '晨跑，沿着河边',
  '雨の中のジョギング',
  'جري صباحي على الكورنيش',
  'ריצת בוקר בפארק',
  'Πρωινό τρέξιμο 🏃‍♀️',
  'Koşu: tempo 4:50/km',
  '새벽 러닝 10km',
  'दौड़ सुबह की',
]

const kinds = [
  { type: 'Running', metresPerSecond: 3.1 },
  { type: 'Cycling', metresPerSecond: 7.2 },
  { type: 'Walking', metresPerSecond: 1.4 },
  { type: 'Hiking', metresPerSecond: 1.1 },
] as const

/** Oldest first, like seedActivities(). `size` is the main user's count. */
export function realisticHistory(size = REALISTIC_HISTORY_SIZE): ActivityDraft[] {
  const random = createRandom(20140101)
  const drafts: ActivityDraft[] = []
  const add = (owner: UserKey, count: number): void => {
    const span = Math.floor((lastDay - firstDay) / dayMs)
    for (let i = 0; i < count; i++) {
      const day = firstDay + Math.floor((span * i) / Math.max(1, count)) * dayMs
      drafts.push(...activitiesOfDay(random, owner, day, i))
    }
  }
  add('alice', size)
  add('bob', Math.max(2, Math.round(size / 10)))
  return drafts.sort((a, b) => a.startTime - b.startTime)
}

/** One activity, or on every seventh day two (same day, hours apart). */
function activitiesOfDay(random: () => number, owner: UserKey, day: number, index: number): ActivityDraft[] {
  // Every eleventh is a web entry at midnight, every thirteenth starts in the small hours, so a
  // date scope judged in another zone than the displayed one shows on them.
  const midnight = index % 11 === 5
  const smallHours = index % 13 === 3
  const lateNight = index % 17 === 8
  const minute = midnight
    ? 0
    : smallHours
      ? randomInt(random, 60, 170)
      : lateNight
        ? randomInt(random, 23 * 60, 23 * 60 + 50)
        : randomInt(random, 6 * 60, 19 * 60)
  const first = draftFor(random, owner, day + minute * 60_000, {
    web: midnight,
    longPath: index % 9 === 4,
    notesIndex: index,
  })
  if (index % 7 !== 2 || lateNight) return [first]
  return [
    first,
    draftFor(random, owner, first.startTime + randomInt(random, 2, 4) * 3_600_000, {
      web: false,
      longPath: false,
      notesIndex: index + 1,
    }),
  ]
}

function draftFor(
  random: () => number,
  owner: UserKey,
  startTime: number,
  options: { web: boolean; longPath: boolean; notesIndex: number },
): ActivityDraft {
  const kind = pickOne(random, kinds)
  const duration = options.web ? randomInt(random, 20, 90) * 60 : randomInt(random, 1200, 9000)
  const totalDistance = roundTenth(duration * kind.metresPerSecond * (0.85 + random() * 0.3))
  const path = options.web
    ? []
    : realisticPath(random, duration, options.longPath ? randomInt(random, 1800, 4200) : randomInt(random, 20, 120))
  const createdAt = Math.floor((startTime + duration * 1000 + randomInt(random, 2, 180) * 60_000) / 1000) * 1000
  // About one in six is edited between two and forty days later (notes added, a type fixed).
  const editedAt =
    random() < 0.17 ? createdAt + randomInt(random, 2, 40) * dayMs + randomInt(random, 0, 86_399) * 1000 : createdAt
  const draft: ActivityDraft = {
    owner,
    type: kind.type,
    equipment: 'None',
    startTime,
    totalDistance,
    duration,
    totalClimb: roundTenth(random() * 300),
    distance: [0, 0.5, 1].map((share) => ({
      timestamp: Math.round(duration * share),
      distance: roundTenth(totalDistance * share),
    })),
    heartRate: options.web
      ? []
      : [0, 0.5, 1].map((share) => ({
          timestamp: Math.round(duration * share),
          heart_rate: randomInt(random, 100, 170),
        })),
    calories: [{ timestamp: duration, calories: Math.round(duration / 6) }],
    path,
    source: options.web ? 'RunKeeper' : pickOne(random, ['RunKeeper', 'Garmin Connect', 'Wahoo Fitness']),
    entryMode: options.web ? 'Web' : 'API',
    modifiedAt: Math.min(editedAt, latestModification),
    createdAt: Math.min(createdAt, latestModification),
    seeded: true,
  }
  if (options.notesIndex % 3 !== 1) draft.notes = notes[options.notesIndex % notes.length] as string
  return draft
}

/** A GPS track: `count` points a few metres apart, one a second or so. */
function realisticPath(random: () => number, duration: number, count: number): PathPoint[] {
  let latitude = 48.137 + random() * 0.05
  let longitude = 11.575 + random() * 0.05
  let altitude = 520 + random() * 40
  const points: PathPoint[] = []
  for (let i = 0; i < count; i++) {
    const type = i === 0 ? 'start' : i === count - 1 ? 'end' : 'gps'
    points.push({
      timestamp: Math.round((duration * i) / (count - 1)),
      latitude: Math.round(latitude * 1e6) / 1e6,
      longitude: Math.round(longitude * 1e6) / 1e6,
      altitude: roundTenth(altitude),
      type,
    })
    latitude += (random() - 0.5) * 0.0004
    longitude += (random() - 0.5) * 0.0004
    altitude += (random() - 0.5) * 2
  }
  return points
}
