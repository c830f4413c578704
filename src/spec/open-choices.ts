import type { RawDifference } from '../diff/compare-answers.js'
import { FEED_PATH } from './paths.js'

/*
 * The open choices a difference can be filed under: where the spec leaves a point open, the sentence
 * that leaves it open (verbatim; test/unit/diff/diff.test.ts finds each in the spec), and how
 * a difference is recognised as that choice. The first entry that applies wins. A difference that
 * none fits is filed as `unclassified`, never under a rule: the spec names no rule for it.
 */

/** What classification knows about the step besides the difference itself. */
export interface StepContext {
  readonly method: string
  /** The request's path and query, base URL and ids by role. */
  readonly target: string
  /** The request's Content-Type, when it had one. */
  readonly contentType?: string
  /** What an earlier write of the same scenario edited. */
  readonly edited: ReadonlySet<'activity' | 'profile'>
  /** The statuses of the two answers. */
  readonly statuses: { readonly new: number; readonly reference: number }
}

export interface OpenChoice {
  readonly kind: string
  readonly section: string
  readonly quote: string
  readonly about: string
  readonly applies: (difference: RawDifference, step: StepContext) => boolean
}

const ACTIVITY = new RegExp(`^${FEED_PATH}/[^/?]+$`)
/** A feed read restricted by one of the time-scope parameters of §4 rule 1. */
export const TIME_SCOPE = /[?&](noEarlierThan|noLaterThan|modifiedNoEarlierThan|modifiedNoLaterThan)=/
const IRREGULAR_ITEM_FIELDS = new Set(['start_time', 'startTime', 'source', 'entry_mode', 'has_map'])

const isStatus = (d: RawDifference): boolean => d.where === 'status'
const isError = (status: number): boolean => status >= 400
const pathOf = (target: string): string => target.split('?')[0] ?? target

export const OPEN_CHOICES: readonly OpenChoice[] = [
  {
    kind: 'feed-irregularities',
    section: '§2.2',
    quote: 'Observed irregularities a builder must tolerate or reproduce as needed:',
    about: 'the feed-item spellings §2.2 reports (startTime, absent source/entry_mode/has_map, /activities/<id>)',
    applies: (d) =>
      (d.where === 'body' &&
        d.place.startsWith('body.items[]') &&
        d.nature === 'presence' &&
        IRREGULAR_ITEM_FIELDS.has(d.name)) ||
      (d.where === 'body' &&
        d.name === 'uri' &&
        d.nature === 'value' &&
        [d.new, d.reference].some((v) => typeof v === 'string' && v.startsWith('/activities/'))),
  },
  {
    kind: 'delete-health-text',
    section: '§7',
    quote: 'In the samples the value is carried as the text "true" or "false".',
    about: 'delete_health as a boolean or as the text "true"/"false"',
    applies: (d) => d.where === 'body' && d.name === 'delete_health' && d.nature === 'type',
  },
  {
    kind: 'previous-link-form',
    section: '§2.2',
    quote:
      'Link to another page of the feed; it carries a `page` query parameter and keeps `pageSize` when that was given.',
    about: 'how the previous link is written beyond its page and pageSize parameters',
    applies: (d) => d.where === 'body' && d.name === 'previous' && d.nature === 'value',
  },
  {
    kind: 'scoped-window',
    section: '§2.2',
    quote: 'when a time scope is applied, it equals the number of items returned in the example',
    about: 'which entries a time-scoped feed returns when more match than one page holds',
    applies: (d, step) => d.where === 'body' && d.nature === 'membership' && TIME_SCOPE.test(step.target),
  },
  {
    kind: 'feed-order',
    section: '§2.2',
    quote: '| items | array of feed item | The entries of this page |',
    about: 'the order of the feed (no order is given), and so which entries the first pages hold',
    applies: (d) => d.where === 'body' && (d.nature === 'order' || d.nature === 'membership'),
  },
  {
    kind: 'media-type-parameters',
    section: '§1 rule 3',
    quote: 'Each representation has its own media type, of the form `application/vnd.com.service.<TypeName>+json`.',
    about: 'parameters (such as charset) after the media type',
    applies: (d) =>
      d.where === 'header' &&
      d.name === 'content-type' &&
      d.nature === 'value' &&
      mediaType(d.new) === mediaType(d.reference),
  },
  {
    kind: 'message-framing',
    section: '§4 endpoint 9',
    quote: `| 9 | HEAD | ${FEED_PATH}/<activity_id> | none | 200, headers only: Content-Type, Content-Length, Last-Modified |`,
    about: 'Content-Length or chunked transfer outside HEAD (Content-Length is named for HEAD only)',
    applies: (d, step) =>
      d.where === 'header' &&
      d.nature === 'presence' &&
      (d.name === 'transfer-encoding' || (d.name === 'content-length' && step.method !== 'HEAD')),
  },
  {
    kind: 'error-status',
    section: '§7 rule 6',
    quote:
      'The list of other status codes (such as for missing activities or invalid bodies) and their conditions: not shown.',
    about: 'the status of a missing, deleted or foreign activity, a missing token, a malformed body',
    applies: (d, step) => isStatus(d) && isError(step.statuses.new) && isError(step.statuses.reference),
  },
  {
    kind: 'live-finish',
    section: '§4 rule 6',
    quote: 'How finishing is signalled: not shown.',
    about: 'whether a finished activity still takes live points',
    applies: (d, step) =>
      isStatus(d) &&
      step.method === 'POST' &&
      ACTIVITY.test(pathOf(step.target)) &&
      [step.statuses.new, step.statuses.reference].some((s) => s >= 200 && s < 300),
  },
  {
    kind: 'request-media-type',
    section: '§1 rule 3',
    quote: 'The media type is sent in `Accept` on reads and in `Content-Type` on writes and responses.',
    about: "whether a write with another Content-Type than the representation's is refused",
    applies: (d, step) =>
      isStatus(d) &&
      step.method !== 'GET' &&
      step.method !== 'HEAD' &&
      !(step.contentType ?? '').startsWith('application/vnd.com.service.'),
  },
  {
    kind: 'error-body',
    section: '§7 rule 5',
    quote: 'Other error codes carry human-readable messages, not machine-readable ones.',
    about: 'the headers and body of an error other than the 403 of §7',
    applies: (d, step) => d.where !== 'status' && isError(step.statuses.new) && isError(step.statuses.reference),
  },
  {
    kind: 'editable-activity-fields',
    section: '§4 rule 7',
    quote: 'Which fields are editable is shown only for notes; the complete list is not given in this document.',
    about: 'which activity fields an edit changes besides notes',
    applies: (d, step) => d.where === 'body' && step.edited.has('activity') && d.name !== 'notes',
  },
  {
    kind: 'editable-profile-fields',
    section: '§2.6',
    quote: '| athlete_type | string | Athlete category; editable |',
    about: 'which profile fields an edit changes besides athlete_type',
    applies: (d, step) => d.where === 'body' && step.edited.has('profile') && d.name !== 'athlete_type',
  },
]

/** The form of the ids each server gives: seen on the activities the run created, not per step. */
export const IDENTIFIER_FORMAT: Omit<OpenChoice, 'applies'> = {
  kind: 'identifier-format',
  section: 'Conventions',
  quote: 'Example values are not given; only shapes.',
  about: 'the form of activity ids (integer, UUID, other)',
}

/** Filed under no open choice: the spec gives no sentence for it, so the report asks for a look. */
export const UNCLASSIFIED = {
  kind: 'unclassified',
  section: '',
  about: 'a difference no open choice of the catalogue describes: look at it',
}

export function findOpenChoice(difference: RawDifference, step: StepContext): OpenChoice | undefined {
  return OPEN_CHOICES.find((choice) => choice.applies(difference, step))
}

function mediaType(value: unknown): string {
  return typeof value === 'string' ? (value.split(';')[0] ?? '').trim().toLowerCase() : ''
}
