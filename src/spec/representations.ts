// The representations of the interface (§2, §7), their media types (§1 rule 3) and the schema
// that describes each body. The two edits are partial bodies of §4 endpoints 6 and 7: they travel
// under the Profile and FitnessActivity media types but have no required fields.

export type RepresentationName =
  | 'User'
  | 'FitnessActivityFeed'
  | 'FitnessActivity'
  | 'Profile'
  | 'ErrorMessage'
  | 'NewFitnessActivity'
  | 'LiveFitnessActivityUpdate'
  | 'FitnessActivityEdit'
  | 'ProfileEdit'

const SCHEMA_BASE = 'https://fitconform.dev/schemas/api/'

const REPRESENTATIONS: Readonly<Record<RepresentationName, { typeName: string; schemaFile: string }>> = {
  User: { typeName: 'User', schemaFile: 'user.schema.json' },
  FitnessActivityFeed: { typeName: 'FitnessActivityFeed', schemaFile: 'fitness-activity-feed.schema.json' },
  FitnessActivity: { typeName: 'FitnessActivity', schemaFile: 'fitness-activity.schema.json' },
  Profile: { typeName: 'Profile', schemaFile: 'profile.schema.json' },
  ErrorMessage: { typeName: 'ErrorMessage', schemaFile: 'error-message.schema.json' },
  NewFitnessActivity: { typeName: 'NewFitnessActivity', schemaFile: 'new-fitness-activity.schema.json' },
  LiveFitnessActivityUpdate: {
    typeName: 'LiveFitnessActivityUpdate',
    schemaFile: 'live-fitness-activity-update.schema.json',
  },
  FitnessActivityEdit: { typeName: 'FitnessActivity', schemaFile: 'fitness-activity-edit.schema.json' },
  ProfileEdit: { typeName: 'Profile', schemaFile: 'profile-edit.schema.json' },
}

/** Every representation name, in a fixed order. */
export const REPRESENTATION_NAMES = Object.keys(REPRESENTATIONS) as readonly RepresentationName[]

export function isRepresentationName(s: unknown): s is RepresentationName {
  return typeof s === 'string' && Object.hasOwn(REPRESENTATIONS, s)
}

/**
 * The media type a representation travels under (§1 rule 3).
 * @example mediaTypeOf('FitnessActivityEdit') // 'application/vnd.com.service.FitnessActivity+json'
 */
export function mediaTypeOf(name: RepresentationName): string {
  return `application/vnd.com.service.${REPRESENTATIONS[name].typeName}+json`
}

/** A representation name (`User`) as its media type; anything else is taken as a media type already. */
export function mediaTypeOfNameOrType(nameOrType: string): string {
  return isRepresentationName(nameOrType) ? mediaTypeOf(nameOrType) : nameOrType
}

/**
 * The `$id` of the schema in schemas/api/ that describes a representation.
 * @example schemaIdOf('User') // 'https://fitconform.dev/schemas/api/user.schema.json'
 */
export function schemaIdOf(name: RepresentationName): string {
  return SCHEMA_BASE + REPRESENTATIONS[name].schemaFile
}
