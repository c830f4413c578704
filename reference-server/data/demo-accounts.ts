// The demo users and their tokens. The tokens are public by design (printed in docs and logs):
// they open nothing but this in-memory server.
import type { Profile, User, UserKey } from '../store/model.js'

export interface DemoTokens {
  /** alice, every permission. */
  token: string
  /** bob, every permission: for user-isolation checks (§5 rule 2). */
  otherToken: string
  /** A user who disconnected the app and did not ask for deletion (§7 rule 1). */
  revokedToken: string
  /** A user who disconnected the app and asked for deletion (§7 rule 2). */
  revokedDeleteToken: string
  /** alice's data, but the app lacks the fitness-activities permission (§7 rule 3). */
  limitedToken: string
}

export const demoTokens: DemoTokens = {
  token: 'demo-token-alice',
  otherToken: 'demo-token-bob',
  revokedToken: 'demo-token-revoked',
  revokedDeleteToken: 'demo-token-revoked-delete',
  limitedToken: 'demo-token-limited',
}

/** What a token grants (§5 rule 2: a token is tied to a user and to permissions). */
export interface Grant {
  user: UserKey
  /** Set when the user disconnected the application (§5 rule 3). */
  revoked?: { deleteHealth: boolean }
  /** The fitness-activities data set (§4 endpoints 2–5, 7–9). */
  fitnessActivities: boolean
}

const grants: ReadonlyMap<string, Grant> = new Map<string, Grant>([
  [demoTokens.token, { user: 'alice', fitnessActivities: true }],
  [demoTokens.otherToken, { user: 'bob', fitnessActivities: true }],
  [demoTokens.revokedToken, { user: 'carol', revoked: { deleteHealth: false }, fitnessActivities: true }],
  [demoTokens.revokedDeleteToken, { user: 'dave', revoked: { deleteHealth: true }, fitnessActivities: true }],
  [demoTokens.limitedToken, { user: 'alice', fitnessActivities: false }],
])

export function grantFor(token: string): Grant | undefined {
  return grants.get(token)
}

/** The grant of the first token whose first `length` characters `token` shares (the token-prefix-matched mutant). */
export function grantByPrefix(token: string, length: number): Grant | undefined {
  if (token.length < length) return undefined
  for (const [known, grant] of grants) if (known.slice(0, length) === token.slice(0, length)) return grant
  return undefined
}

/** Fresh user records, so that profile edits stay inside one server instance. */
export function createDemoUsers(): Map<UserKey, User> {
  const users: [
    UserKey,
    Omit<Profile, 'profile' | 'small_picture' | 'normal_picture' | 'medium_picture' | 'large_picture'>,
  ][] = [
    [
      'alice',
      {
        name: 'Alice Example',
        location: 'Lyon, France',
        athlete_type: 'Runner',
        gender: 'F',
        birthday: 'Sat, 1 Jan 1983 00:00:00',
        elite: false,
      },
    ],
    [
      'bob',
      {
        name: 'Bob Example',
        location: 'Leeds, UK',
        athlete_type: 'Cyclist',
        gender: 'M',
        birthday: 'Thu, 14 Jul 1977 00:00:00',
        elite: true,
      },
    ],
    [
      'carol',
      {
        name: 'Carol Example',
        location: 'Oslo, Norway',
        athlete_type: 'Walker',
        gender: 'F',
        birthday: 'Fri, 9 Mar 1990 00:00:00',
        elite: false,
      },
    ],
    [
      'dave',
      {
        name: 'Dave Example',
        location: 'Porto, Portugal',
        athlete_type: 'Swimmer',
        gender: 'M',
        birthday: 'Sun, 30 Nov 1969 00:00:00',
        elite: false,
      },
    ],
  ]
  return new Map(
    users.map(([key, fields], index) => [key, { key, index, profile: { ...fields, ...profileLinks(key) } }]),
  )
}

// §2.6 wants absolute URLs; example.com is reserved for documentation, so nothing real is named.
function profileLinks(
  key: UserKey,
): Pick<Profile, 'profile' | 'small_picture' | 'normal_picture' | 'medium_picture' | 'large_picture'> {
  const site = 'https://fitness.example.com'
  return {
    profile: `${site}/user/${key}`,
    small_picture: `${site}/pictures/${key}-small.jpg`,
    normal_picture: `${site}/pictures/${key}-normal.jpg`,
    medium_picture: `${site}/pictures/${key}-medium.jpg`,
    large_picture: `${site}/pictures/${key}-large.jpg`,
  }
}
