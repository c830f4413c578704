// The in-memory data the reference server keeps. Plain data only: representations.ts decides how
// it looks on the wire, so one record can be rendered by every mode.

/** The four demo users; `carol` and `dave` exist only to be revoked (§7 rules 1–2). */
export type UserKey = 'alice' | 'bob' | 'carol' | 'dave'

/** A route point (§2.3 "Path point"). */
export interface PathPoint {
  timestamp: number
  latitude: number
  longitude: number
  altitude: number
  type: string
}

export interface DistanceSample {
  timestamp: number
  distance: number
}

export interface HeartRateSample {
  timestamp: number
  heart_rate: number
}

export interface CalorieSample {
  timestamp: number
  calories: number
}

export interface Activity {
  /** The id as it appears in URIs; its shape depends on the mode (ids.ts). */
  id: string
  /** Creation order, the tie-break when two activities start at the same second. */
  seq: number
  owner: UserKey
  type: string
  equipment: string
  /**
   * Start time as a zone-less wall-clock time, stored as milliseconds "as if UTC": §2.2's
   * `<weekday>, <day> <month> <year> <HH:MM:SS>` carries no zone, so neither do we.
   */
  startTime: number
  /** Metres (§2.7 leaves units open). */
  totalDistance: number
  /** Seconds. */
  duration: number
  /** Metres. */
  totalClimb: number
  distance: DistanceSample[]
  heartRate: HeartRateSample[]
  calories: CalorieSample[]
  path: PathPoint[]
  notes?: string
  source: string
  entryMode: 'API' | 'Web'
  /** Last modification, UTC milliseconds, always a whole second (Last-Modified has second resolution). */
  modifiedAt: number
  /** When it was recorded, when a later edit moved modifiedAt away from it (realistic-history.ts). */
  createdAt?: number
  /** Part of the seed, not created through the API: some mutants misbehave on such activities only. */
  seeded?: boolean
}

/** §2.6 Profile, stored exactly as rendered. */
export interface Profile {
  name: string
  location: string
  athlete_type: string
  gender: string
  birthday: string
  elite: boolean
  profile: string
  small_picture: string
  normal_picture: string
  medium_picture: string
  large_picture: string
}

export interface User {
  key: UserKey
  /** Position in the demo list; the mode turns it into a userID (modes.ts). */
  index: number
  profile: Profile
}
