import { CONNECTION_HEADERS } from '../spec/spec-names.js'
import { FOREIGN_ACTIVITY, NEIGHBOUR, VOLATILE_FIELDS, VOLATILE_HEADERS } from './volatile-values.js'
import { isRecord } from '../shared/is-record.js'

/** One answer, its volatile values already replaced by their roles (volatile-values.ts). */
export interface Answer {
  readonly status: number
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  /** Parsed JSON, the text, or absent for no body. */
  readonly body?: unknown
}

/**
 * - `value`: both have it, with different values; `type`: different JSON types;
 * - `presence`: only one side has it;
 * - `order`: the same entries in another order; `membership`: not the same entries.
 */
export type DifferenceNature = 'value' | 'type' | 'presence' | 'order' | 'membership'

/** A difference before it is classified. */
export interface RawDifference {
  readonly where: 'status' | 'header' | 'body'
  /** `status`, `headers.etag`, `body.items[2].source`. */
  readonly path: string
  /** The path with array positions left out (`body.items[].source`): the same place on every step. */
  readonly place: string
  /** The last field name on the path, or the header's name. */
  readonly name: string
  readonly nature: DifferenceNature
  readonly new?: unknown
  readonly reference?: unknown
}

const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** Every difference between the new server's answer and the reference's, status, headers, body. */
/**
 * `ownLabel` starts the role of the activities the step's own scenario created: only those are compared
 * by value and order in a feed. Other scenarios' activities come and go while the run goes on, at
 * moments that differ between two runs, so they are compared like the account's own (by shape).
 */
export function compareAnswers(
  answerNew: Answer,
  answerReference: Answer,
  options: { ownLabel?: string; scoped?: boolean } = {},
): RawDifference[] {
  // Once the statuses differ, headers and body answer different questions: the status says it all.
  if (answerNew.status !== answerReference.status)
    return [
      {
        where: 'status',
        path: 'status',
        place: 'status',
        name: 'status',
        nature: 'value',
        new: answerNew.status,
        reference: answerReference.status,
      },
    ]
  const activity = isActivity(answerNew.headers) && isActivity(answerReference.headers)
  return [
    ...compareHeaders(answerNew.headers, answerReference.headers),
    ...compareBodies(answerNew.body, answerReference.body, {
      activity,
      ownLabel: options.ownLabel ?? '',
      scoped: options.scoped ?? false,
    }),
  ]
}

/** An activity's `previous` (§2.3) is its neighbour: which one depends on everything else the account holds. */
function isActivity(headers: Readonly<Record<string, string>>): boolean {
  return (headers['content-type'] ?? '').includes('.FitnessActivity+json')
}

function compareHeaders(
  headersNew: Readonly<Record<string, string>>,
  headersReference: Readonly<Record<string, string>>,
): RawDifference[] {
  const names = [...new Set([...Object.keys(headersNew), ...Object.keys(headersReference)])]
    .filter((name) => !CONNECTION_HEADERS.has(name))
    .sort()
  const found: RawDifference[] = []
  for (const name of names) {
    const a = headersNew[name]
    const b = headersReference[name]
    const path = `headers.${name}`
    const base = { where: 'header' as const, path, place: path, name }
    if (a === undefined || b === undefined) {
      found.push({
        ...base,
        nature: 'presence',
        new: a,
        reference: b,
      })
      continue
    }
    if (name === 'last-modified' && HTTP_DATE.test(a) !== HTTP_DATE.test(b))
      found.push({ ...base, nature: 'value', new: a, reference: b })
    else if (!Object.hasOwn(VOLATILE_HEADERS, name) || name === 'location') {
      if (a !== b) found.push({ ...base, nature: 'value', new: a, reference: b })
    }
  }
  return found
}

function compareBodies(
  a: unknown,
  b: unknown,
  options: { activity: boolean; ownLabel: string; scoped: boolean },
): RawDifference[] {
  const found: RawDifference[] = []
  if (a === undefined && b === undefined) return found
  if (a === undefined || b === undefined) {
    found.push({
      where: 'body',
      path: 'body',
      place: 'body',
      name: 'body',
      nature: 'presence',
      new: a,
      reference: b,
    })
    return found
  }
  const top: Where = {
    path: 'body',
    place: 'body',
    name: 'body',
    shapeOnly: false,
    ownLabel: options.ownLabel,
    scoped: options.scoped,
  }
  if (options.activity && isRecord(a) && isRecord(b)) {
    const { [NEIGHBOUR]: _a, ...restA } = a
    const { [NEIGHBOUR]: _b, ...restB } = b
    walk(restA, restB, top, found)
  } else walk(a, b, top, found)
  return found
}

interface Where {
  readonly path: string
  readonly place: string
  readonly name: string
  /** The account's own data: compare field names and JSON types, not values. */
  readonly shapeOnly: boolean
  readonly ownLabel: string
  /** The request carried a time scope (§4 rule 1). */
  readonly scoped: boolean
}

function walk(a: unknown, b: unknown, where: Where, found: RawDifference[]): void {
  const push = (
    nature: DifferenceNature,
    values: { new?: unknown; reference?: unknown } = { new: a, reference: b },
  ): void => {
    found.push({ where: 'body', path: where.path, place: where.place, name: where.name, nature, ...values })
  }
  if (kindOf(a) !== kindOf(b)) return push('type')
  if (Array.isArray(a) && Array.isArray(b)) return walkArrays(a, b, where, found)
  if (isRecord(a) && isRecord(b)) {
    const shapeOnly = where.shapeOnly || (isForeign(a, where.ownLabel) && isForeign(b, where.ownLabel))
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const inner: Where = {
        path: `${where.path}.${key}`,
        place: `${where.place}.${key}`,
        name: key,
        shapeOnly,
        ownLabel: where.ownLabel,
        scoped: where.scoped,
      }
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) {
        // §2.3 notes are "present when set": empty notes and no notes say the same.
        if (key === 'notes' && (a[key] ?? b[key]) === '') continue
        found.push({
          where: 'body',
          path: inner.path,
          place: inner.place,
          name: key,
          nature: 'presence',
          ...(Object.hasOwn(a, key) ? { new: a[key] } : {}),
          ...(Object.hasOwn(b, key) ? { reference: b[key] } : {}),
        })
        continue
      }
      if (Object.hasOwn(VOLATILE_FIELDS, key) && !isRecord(a[key]) && !Array.isArray(a[key])) {
        if (kindOf(a[key]) !== kindOf(b[key]))
          found.push({
            where: 'body',
            path: inner.path,
            place: inner.place,
            name: key,
            nature: 'type',
            new: a[key],
            reference: b[key],
          })
        continue
      }
      walk(a[key], b[key], inner, found)
    }
    return
  }
  if (!where.shapeOnly && a !== b) push('value')
}

/**
 * Entries with a `uri` (feed items) are paired by it: the run's own activities by role, the account's
 * own by position among themselves. The order of the run's own activities is compared once, apart.
 */
function walkArrays(a: readonly unknown[], b: readonly unknown[], where: Where, found: RawDifference[]): void {
  const place = `${where.place}[]`
  if (a.every(hasUri) && b.every(hasUri) && (a.length > 0 || b.length > 0)) {
    const foreign = (item: unknown): boolean => isForeign(item, where.ownLabel)
    const ownA = a.filter((item) => !foreign(item)).map(roleOf)
    const ownB = b.filter((item) => !foreign(item)).map(roleOf)
    const common = ownA.filter((role) => ownB.includes(role))
    const sameEntries = ownA.length === ownB.length && common.length === ownA.length
    // Which page an activity lands on depends on everything else in the account at that moment; a time scope fixes it.
    if (!sameEntries && where.scoped)
      found.push({
        where: 'body',
        path: where.path,
        place: where.place,
        name: where.name,
        nature: 'membership',
        new: ownA,
        reference: ownB,
      })
    else if (common.join('\n') !== ownB.filter((role) => ownA.includes(role)).join('\n'))
      found.push({
        where: 'body',
        path: where.path,
        place: where.place,
        name: where.name,
        nature: 'order',
        new: common,
        reference: ownB.filter((role) => ownA.includes(role)),
      })
    const foreignB = b.filter(foreign)
    let foreignIndex = 0
    a.forEach((item, index) => {
      const partner = foreign(item)
        ? foreignB[foreignIndex++]
        : b.find((other) => !foreign(other) && roleOf(other) === roleOf(item))
      if (partner !== undefined) walk(item, partner, { ...where, path: `${where.path}[${index}]`, place }, found)
    })
    return
  }
  if (a.length !== b.length && !where.shapeOnly)
    found.push({
      where: 'body',
      path: `${where.path}.length`,
      place: `${where.place}.length`,
      name: where.name,
      nature: 'value',
      new: a.length,
      reference: b.length,
    })
  for (let index = 0; index < Math.min(a.length, b.length); index++)
    walk(a[index], b[index], { ...where, path: `${where.path}[${index}]`, place }, found)
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** `<activity created by … step 2>` of a feed item, whichever collection its uri names (§2.2 irregularities). */
function roleOf(item: { uri: string }): string {
  return /<[^>]*>/.exec(item.uri)?.[0] ?? item.uri
}

function hasUri(value: unknown): value is { uri: string } {
  return isRecord(value) && typeof value.uri === 'string'
}

/** Not created by the step's own scenario: the account's history, or another scenario's activity. */
function isForeign(value: unknown, ownLabel: string): boolean {
  if (!hasUri(value)) return false
  if (value.uri.includes(FOREIGN_ACTIVITY)) return true
  return ownLabel !== '' && value.uri.includes('<activity created by ') && !value.uri.includes(`<${ownLabel}`)
}
