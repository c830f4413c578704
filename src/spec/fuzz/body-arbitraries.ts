// Request bodies for every write of §4 (New activity §2.4, edit §4 rule 7, live update §2.5, profile
// edit §4 endpoint 6), valid across the whole domain the schemas of schemas/api/ allow, and invalid in
// every way a client can get one wrong. Field names and types come from the schema files, so a field
// added there is fuzzed too.
//
// Values are written the way a scenario file writes them: a start time is a template on the run's far
// year (`${run.farYear | date(9, 14, …) | specTime}`), notes begin with `${run.marker}` (the sweep finds
// what a lost response created), activity types are the config's names. So a shrunk case, written as a
// YAML scenario, replays on any later run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { literalText } from '../../shared/literal-text.js'
import { packageRoot } from '../../shared/package-root.js'
import { FUZZ_MONTH } from './fuzz-days.js'

interface SchemaProperty {
  readonly type?: string | readonly string[]
  readonly $ref?: string
  readonly enum?: readonly unknown[]
}

interface SchemaFile {
  readonly properties: Readonly<Record<string, SchemaProperty>>
  readonly $defs?: Readonly<Record<string, { properties: Readonly<Record<string, SchemaProperty>> }>>
}

const schemaCache = new Map<string, SchemaFile>()

/** A schema of schemas/api/ by file name. */
function apiSchema(file: string): SchemaFile {
  let schema = schemaCache.get(file)
  if (!schema) {
    schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'api', file), 'utf8')) as SchemaFile
    schemaCache.set(file, schema)
  }
  return schema
}

/** The JSON type a property declares, following a `$ref` into fitness-activity.schema.json or profile.schema.json. */
function declaredType(property: SchemaProperty): string {
  if (property.$ref) {
    const [file, pointer] = property.$ref.split('#') as [string, string]
    const target = pointer
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], apiSchema(file)) as SchemaProperty
    return declaredType(target)
  }
  if (property.enum) return 'string'
  const type = Array.isArray(property.type) ? property.type[0] : property.type
  return (type as string | undefined) ?? 'string'
}

/** Text that looks like the scenario language's templates: generated data must reach the server as it is. */
const TEMPLATE_LOOKALIKES = ['${', '${run.marker}', "${'", '$${x}', '$', '}${']

/** Clusters that break naive text handling (fast-check's `grapheme` unit costs seconds to build). */
const GRAPHEMES = [
  'é',
  'e\u0301',
  'Å',
  'A\u030a',
  '👨‍👩‍👧',
  '🧑🏿‍🦱',
  'ไทย',
  'हि',
  '\r\n',
  '✓',
  '中文',
  '🏃‍♀️',
  '👍🏽',
  '🇨🇭',
  'עב',
  'ع',
  '\u200b',
  '\u0000',
  '\t',
  '\n',
  '"',
  '\\',
  '<',
  '&',
  ' ',
  'ß',
  'İ',
  ...TEMPLATE_LOOKALIKES,
]

/** Any Unicode scalar value (fast-check's `binary` unit builds a reverse map of all of them: seconds). */
export function anyCodePoint(): fc.Arbitrary<string> {
  return fc
    .integer({ min: 0, max: 0x10ffff })
    .filter((n) => n < 0xd800 || n > 0xdfff)
    .map((n) => String.fromCodePoint(n))
}

let freeTextArbitrary: fc.Arbitrary<string> | undefined

/** Free text over the whole domain: unicode, control characters, line breaks, empty, and past 1,000 characters. */
function freeText(): fc.Arbitrary<string> {
  // Built once: the chained generators ask for it once per value.
  freeTextArbitrary ??= fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 3, arbitrary: fc.array(fc.constantFrom(...GRAPHEMES), { maxLength: 12 }).map((parts) => parts.join('')) },
    { weight: 2, arbitrary: fc.string({ unit: anyCodePoint(), maxLength: 12 }) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'line\nbreak',
        'two\r\nlines',
        'tab\there',
        '\n',
        ' ',
        '',
        'ünïcödé ✓',
        '🏃‍♀️🚴',
        'עברית',
        '"quoted" \\ back\\slash',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}\n${b}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 995, max: 1_400 }))
        .map(([unit, length]) => unit.repeat(length).slice(0, length)),
    },
    // Several kilobytes of emoji sequences: a cut counted in UTF-16 units lands inside a character.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('🏃‍♀️', '👍🏽', 'é', 'e\u0301', '中'), fc.integer({ min: 800, max: 1_500 }))
        .map(([unit, count]) => unit.repeat(count)),
    },
  )
  return freeTextArbitrary
}

/** Notes as the suite writes them: the run marker first, then the generated text as literal text (never a template). */
function notesText(): fc.Arbitrary<string> {
  return freeText().map((text) => `\${run.marker} ${literalText(text)}`)
}

/** A fractional number with up to 15 significant digits, or a whole one, or a very large one. */
function decimal(min: number, max: number): fc.Arbitrary<number> {
  return fc
    .oneof(
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) }),
      fc
        .tuple(
          fc.integer({ min: Math.ceil(min), max: Math.floor(max) - 1 }),
          fc.integer({ min: 0, max: 999_999_999_999 }),
        )
        .map(([whole, fraction]) => Number(`${whole}.${String(fraction).padStart(12, '0')}`)),
    )
    .map((value) => (Object.is(value, -0) ? 0 : value))
}

export interface PathPoint {
  readonly timestamp: number
  readonly latitude: number
  readonly longitude: number
  readonly altitude: number
  readonly type: string
}

/** §2.3 path point; latitude and longitude in decimal degrees, the other units not shown (§2.7). */
function pathPoint(types: readonly string[]): fc.Arbitrary<PathPoint> {
  return fc.record({
    timestamp: fc.oneof(fc.integer({ min: 0, max: 86_400 }), fc.maxSafeNat()),
    latitude: decimal(-90, 90),
    longitude: decimal(-180, 180),
    altitude: fc
      .oneof(decimal(-500, 9_000), fc.double({ min: -1e300, max: 1e300, noNaN: true, noDefaultInfinity: true }))
      .map((value) => (Object.is(value, -0) ? 0 : value)),
    type: fc.constantFrom(...types),
  })
}

/** Empty, short, long and very long routes. */
function path(types: readonly string[]): fc.Arbitrary<PathPoint[]> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.array(pathPoint(types), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.array(pathPoint(types), { minLength: 50, maxLength: 200 }) },
    // A recorded route of thousands of points: a body well past 64 KiB.
    { weight: 1, arbitrary: fc.array(pathPoint(types), { minLength: 1_000, maxLength: 2_000 }) },
  )
}

/** A start time on a day and second of the fuzz month of the far year, as a scenario template. */
function startTimeTemplate(day: number, seconds: number): string {
  const hour = Math.floor(seconds / 3600)
  const minute = Math.floor(seconds / 60) % 60
  return `\${run.farYear | date(${FUZZ_MONTH}, ${day}, ${hour}, ${minute}, ${seconds % 60}) | specTime}`
}

export interface NewActivityBody {
  readonly type: string
  readonly equipment?: string
  readonly start_time: string
  readonly notes: string
  readonly path?: PathPoint[]
}

/** A valid New activity (§2.4) for a given day; the activity types are the ones the config names. */
export function newActivityBody(day: number): fc.Arbitrary<NewActivityBody> {
  return fc.record(
    {
      type: fc.constantFrom('${config.activityType}', '${config.otherActivityType}'),
      equipment: fc.constant('${config.equipment}'),
      // Midnight and the last second of the day come often: real clients' start times do.
      start_time: fc
        .oneof(fc.constantFrom(0, 86_399), fc.integer({ min: 0, max: 86_399 }))
        .map((seconds) => startTimeTemplate(day, seconds)),
      notes: notesText(),
      path: path(['start', 'end', 'gps']),
    },
    { requiredKeys: ['type', 'start_time', 'notes'] },
  )
}

/** A valid live update (§2.5): points to add. */
export function liveUpdateBody(): fc.Arbitrary<{ path: PathPoint[] }> {
  return fc.record({ path: fc.array(pathPoint(['gps']), { minLength: 1, maxLength: 5 }) })
}

/** A valid activity edit (§4 rule 7): new notes, sometimes with non-editable fields that must be ignored. */
export function activityEditBody(): fc.Arbitrary<{ notes: string; uri?: string; userID?: number }> {
  return fc.record(
    {
      notes: notesText(),
      uri: fc.constant('/fitnessActivities/999999999'),
      userID: fc.integer({ min: 1, max: 2 ** 31 }),
    },
    { requiredKeys: ['notes'] },
  )
}

/** A valid profile edit (§4 endpoint 6): athlete_type, the one field §2.6 marks editable, from the config. */
export function profileEditBody(): fc.Arbitrary<{ athlete_type: string }> {
  return fc.record({ athlete_type: fc.constantFrom('${config.athleteType}', '${config.otherAthleteType}') })
}

/** A JSON value whose type differs from `type`. */
function wrongTyped(type: string): fc.Arbitrary<unknown> {
  const byType: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([])),
    number: fc.oneof(fc.constant('12.5'), fc.boolean(), fc.constant(null), fc.constant({})),
    integer: fc.oneof(fc.constant('7'), fc.double({ min: 0.1, max: 0.9, noNaN: true }), fc.constant(null)),
    boolean: fc.oneof(fc.constant('true'), fc.integer({ min: 0, max: 1 }), fc.constant(null)),
    array: fc.oneof(fc.constant('not a list'), fc.integer(), fc.constant({})),
    object: fc.oneof(fc.constant('not an object'), fc.constant([])),
  }
  return byType[type] ?? fc.constant(null)
}

/**
 * Ways a write body can be wrong. `not-json` must be refused (4xx, nothing stored); the others only must not be
 * answered 5xx (§7 rules 5–6).
 */
export type InvalidKind =
  | 'not-json'
  | 'wrong-types'
  | 'missing-fields'
  | 'extra-fields'
  | 'not-an-object'
  | 'deep-nesting'
  | 'wrong-media-type'
  | 'oversize'

export interface InvalidBody {
  readonly kind: InvalidKind
  /** Raw text sent as the body. */
  readonly text: string
  /** A Content-Type other than the representation's, for `wrong-media-type`. */
  readonly contentType?: string
}

/** A body that is not JSON at all; it still names `day` (so a server that stores it anyway shows up in the feed of that day). */
function notJson(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const json = JSON.stringify(valid)
  return fc.oneof(
    fc.integer({ min: 1, max: Math.max(1, json.length - 1) }).map((cut) => json.slice(0, cut)),
    fc.constant(
      Object.entries(valid)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join('&'),
    ),
    fc.constant(`${json.slice(0, -1)},}`),
    fc.constant(`<activity>${json}</activity>`),
  )
}

/**
 * `valid` as JSON text plus one generated field. The raw text is rendered as a template when the step
 * runs: `valid`'s templates stay templates, the generated name and value are written as literal text.
 */
function withGeneratedField(valid: Record<string, unknown>, name: string, value: unknown): string {
  const members = Object.entries(valid).map(([key, element]) => `${JSON.stringify(key)}:${JSON.stringify(element)}`)
  members.push(literalText(`${JSON.stringify(name)}:${JSON.stringify(value)}`))
  return `{${members.join(',')}}`
}

/**
 * An invalid variant of `valid`, a valid body of the schema in `schemaFile`. Wrong types and extra
 * fields are derived from the schema's properties. Templates stay in the text (they are rendered
 * when the step runs).
 */
export function invalidBody(
  valid: Record<string, unknown>,
  schemaFile: string,
  required: readonly string[],
): fc.Arbitrary<InvalidBody> {
  const properties = apiSchema(schemaFile).properties
  const names = Object.keys(properties)
  const withWrongType = fc
    .constantFrom(...names)
    .chain((name) => wrongTyped(declaredType(properties[name]!)).map((value) => ({ ...valid, [name]: value })))
  const unknownName = fc
    .oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...TEMPLATE_LOOKALIKES))
    .filter((name) => !names.includes(name) && !name.startsWith('post_to_'))
  const kinds: fc.Arbitrary<InvalidBody>[] = [
    notJson(valid).map((text) => ({ kind: 'not-json' as const, text })),
    withWrongType.map((body) => ({ kind: 'wrong-types' as const, text: JSON.stringify(body) })),
    fc
      .tuple(unknownName, fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...TEMPLATE_LOOKALIKES)))
      .map(([name, value]) => ({ kind: 'extra-fields' as const, text: withGeneratedField(valid, name, value) })),
    fc
      .constantFrom('[]', '42', '"text"', 'null', 'true', JSON.stringify([valid]))
      .map((text) => ({ kind: 'not-an-object' as const, text })),
    fc.integer({ min: 500, max: 5_000 }).map((depth) => ({
      kind: 'deep-nesting' as const,
      text: JSON.stringify({ ...valid, nested: 0 }).replace(
        '"nested":0',
        `"nested":${'['.repeat(depth)}${']'.repeat(depth)}`,
      ),
    })),
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
      .map((contentType) => ({ kind: 'wrong-media-type' as const, text: JSON.stringify(valid), contentType })),
  ]
  if (required.length > 0) {
    kinds.push(
      fc.constantFrom(...required).map((missing) => ({
        kind: 'missing-fields' as const,
        text: JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([key]) => key !== missing))),
      })),
    )
  }
  return fc.oneof(...kinds)
}

/** A body past 1 MiB (request size limits are not shown, §8): rare, it makes a large scenario file. */
export function oversizeBody(valid: Record<string, unknown>): fc.Arbitrary<InvalidBody> {
  return fc.constant({ kind: 'oversize' as const, text: JSON.stringify({ ...valid, padding: 'x'.repeat(1_100_000) }) })
}
