import { utcMillis } from '../validation/calendar.js'
import { formatHttpDate, formatSpecTime } from '../validation/time-formats.js'
import { toInstant } from './to-instant.js'
import { isRecord } from '../shared/is-record.js'

type Argument = string | number
export interface ExpressionFunction {
  /** Number of arguments accepted: [min, max]. */
  readonly arity: readonly [number, number]
  readonly apply: (value: unknown, args: readonly Argument[]) => unknown
  /** List functions (length, unique, sort) see the whole array; every other function maps over a list. */
  readonly onLists?: true
}

const DAY_MS = 86_400_000

function instantOf(value: unknown): number | undefined {
  return toInstant(value)
}

function mapDefined<T>(value: T | undefined, fn: (v: T) => unknown): unknown {
  return value === undefined ? undefined : fn(value)
}

// §2.2: the values a feed item shares with its activity (§2.3). The start time may be spelled
// startTime in an item (an irregularity) and is compared as an instant, since the two texts may
// differ in form; the item's uri may be /activities/<id>, so the id is the uri's last segment.
const SHARED_WITH_ITEM = ['type', 'total_distance', 'duration', 'source', 'entry_mode', 'has_map'] as const

function feedItemView(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined
  const view: Record<string, unknown> = {}
  const id = EXPRESSION_FUNCTIONS.lastSegment?.apply(value.uri, [])
  if (id !== undefined) view.id = id
  const start = instantOf(value.start_time ?? value.startTime)
  if (start !== undefined) view.start = start
  for (const field of SHARED_WITH_ITEM) if (value[field] !== undefined) view[field] = value[field]
  // has_map's type is judged by its own rules (text, not boolean) on each side; here only its value is compared.
  if (typeof view.has_map === 'boolean') view.has_map = String(view.has_map)
  return view
}

function parseUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined
  try {
    return new URL(value, 'http://relative.invalid')
  } catch {
    return undefined
  }
}

/** The functions of docs/scenario-format.md § Expressions, by name. Each one returns undefined for input it cannot use. */
export const EXPRESSION_FUNCTIONS: Readonly<Record<string, ExpressionFunction>> = {
  // structure
  length: {
    arity: [0, 0],
    onLists: true,
    apply: (v) => (typeof v === 'string' || Array.isArray(v) ? v.length : undefined),
  },
  keys: { arity: [0, 0], apply: (v) => (isRecord(v) ? Object.keys(v) : undefined) },
  omit: {
    arity: [1, 20],
    apply: (v, args) =>
      isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => !args.includes(k))) : undefined,
  },
  pick: {
    arity: [1, 20],
    apply: (v, args) =>
      isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => args.includes(k))) : undefined,
  },
  append: {
    arity: [2, 2],
    apply: (v, [field, text]) =>
      isRecord(v) && typeof v[String(field)] === 'string'
        ? { ...v, [String(field)]: `${v[String(field)] as string}${text}` }
        : undefined,
  },
  feedItemView: { arity: [0, 0], apply: (v) => feedItemView(v) },
  // `body.items[*] | feedItemView | field(start)`: a field of what a function gave. Over a list, the
  // elements that have it (an item without a start time cannot be judged against a date scope).
  field: {
    arity: [1, 1],
    onLists: true,
    apply: (v, [name]) =>
      Array.isArray(v)
        ? v.flatMap((element: unknown) =>
            isRecord(element) && element[String(name)] !== undefined ? [element[String(name)]] : [],
          )
        : isRecord(v)
          ? v[String(name)]
          : undefined,
  },
  // choice: `status | when(403, 'a', 'b')` is 'a' for a 403 and 'b' otherwise (an expected value that depends on the answer)
  when: {
    arity: [3, 3],
    apply: (v, [match, then, otherwise]) =>
      v === match || (v !== undefined && String(v) === String(match)) ? then : otherwise,
  },
  unique: {
    arity: [0, 0],
    onLists: true,
    apply: (v) =>
      Array.isArray(v) ? [...new Set(v.map((x) => JSON.stringify(x)))].map((x) => JSON.parse(x) as unknown) : undefined,
  },
  sort: {
    arity: [0, 0],
    onLists: true,
    apply: (v) =>
      Array.isArray(v)
        ? [...v].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0))
        : undefined,
  },
  // conversions
  bool: {
    arity: [0, 0],
    apply: (v) => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined),
  },
  number: {
    arity: [0, 0],
    apply: (v) =>
      typeof v === 'number'
        ? v
        : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
          ? Number(v)
          : undefined,
  },
  string: {
    arity: [0, 0],
    apply: (v) => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v)),
  },
  min: {
    arity: [1, 1],
    apply: (v, [n]) => (typeof v === 'number' && typeof n === 'number' ? Math.min(v, n) : undefined),
  },
  max: {
    arity: [1, 1],
    apply: (v, [n]) => (typeof v === 'number' && typeof n === 'number' ? Math.max(v, n) : undefined),
  },
  // URIs
  lastSegment: {
    arity: [0, 0],
    apply: (v) =>
      mapDefined(parseUrl(v), (url) => decodeURIComponent(url.pathname.replace(/\/+$/, '').split('/').pop() ?? '')),
  },
  urlPath: { arity: [0, 0], apply: (v) => mapDefined(parseUrl(v), (url) => url.pathname) },
  query: {
    arity: [1, 1],
    apply: (v, [name]) => mapDefined(parseUrl(v), (url) => url.searchParams.get(String(name)) ?? undefined),
  },
  // times
  time: { arity: [0, 0], apply: (v) => instantOf(v) },
  date: {
    arity: [2, 5],
    apply: (year, [month, day, hour = 0, minute = 0, second = 0]) =>
      typeof year === 'number' || typeof year === 'string'
        ? utcMillis({
            year: Number(year),
            month: Number(month) - 1,
            day: Number(day),
            hour: Number(hour),
            minute: Number(minute),
            second: Number(second),
          })
        : undefined,
  },
  addDays: { arity: [1, 1], apply: (v, [n]) => mapDefined(instantOf(v), (ms) => ms + Number(n) * DAY_MS) },
  addSeconds: { arity: [1, 1], apply: (v, [n]) => mapDefined(instantOf(v), (ms) => ms + Number(n) * 1000) },
  ymd: { arity: [0, 0], apply: (v) => mapDefined(instantOf(v), (ms) => new Date(ms).toISOString().slice(0, 10)) },
  httpDate: { arity: [0, 0], apply: (v) => mapDefined(instantOf(v), (ms) => formatHttpDate(ms)) },
  specTime: { arity: [0, 0], apply: (v) => mapDefined(instantOf(v), (ms) => formatSpecTime(ms)) },
}
