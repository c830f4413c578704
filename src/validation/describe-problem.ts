// Plain-words messages for Ajv errors and absent fields: the JSON path, what was wanted and,
// where there is one, the actual value, shortened.
import type { ErrorObject } from 'ajv/dist/2020.js'
import { describeValue } from '../shared/format-value.js'

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  'spec-time':
    'a time in the form "<weekday>, <day> <month> <year> <HH:MM:SS>" whose weekday is that of the date, e.g. "Tue, 1 Mar 2011 07:00:00"',
  'relative-uri': 'a relative URI starting with "/" (no scheme, no host)',
  'absolute-http-url': 'an absolute http or https URL',
  uri: 'an absolute URI',
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

/** The JSON path as a reader sees it: the pointer, or "the body" for the root. */
export function describePath(pointer: string): string {
  return pointer === '' ? 'the body' : pointer
}

/** The message for one Ajv error (run with `verbose`, so that `data` and `parentSchema` are set). */
export function describeAjvError(error: ErrorObject): string {
  const path = describePath(error.instancePath)
  const params = error.params as Record<string, unknown>
  const found = `, found ${describeValue(error.data)}`
  switch (error.keyword) {
    case 'required':
      return `${path} must have the field "${String(params.missingProperty)}"`
    case 'type':
      return `${path} must be ${orList(
        String(params.type)
          .split(',')
          .map((t) => TYPE_WORDS[t] ?? t),
      )}${found}`
    case 'format': {
      const format = String(params.format)
      return `${path} must be ${FORMAT_WORDS[format] ?? `in the format "${format}"`}${found}`
    }
    case 'enum':
      return `${path} must be ${allowedValues(params.allowedValues)}${found}`
    case 'const':
      return `${path} must be ${allowedValues([params.allowedValue])}${found}`
    case 'not': {
      const why = typeof error.parentSchema?.description === 'string' ? ` (${error.parentSchema.description})` : ''
      return `${path} must not be present${why}${found}`
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${path} ${String(error.message)}${found}`
    default:
      return `${path} ${String(error.message)}`
  }
}

function allowedValues(values: unknown): string {
  const list = Array.isArray(values) ? values : []
  const words = list.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v)))
  return list.every((v) => typeof v === 'string') ? `the text ${orList(words)}` : orList(words)
}

function orList(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? ''
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`
}
