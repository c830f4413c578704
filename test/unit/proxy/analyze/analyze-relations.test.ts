// Relations between exchanges of one session: each case is a sequence of hand-written exchanges,
// judged in order by one ObservedRelations; the findings of each exchange are listed.
import { describe, expect, it } from 'vitest'
import { analyzeExchange } from '../../../../proxy/analyze/index.js'
import { ObservedRelations } from '../../../../proxy/analyze/relations/observed-relations.js'
import { AUTH, mt, view, type ViewSpec } from './exchange-views.js'

const LM_1 = 'Tue, 01 Mar 2011 07:00:00 GMT'
const LM_2 = 'Wed, 02 Mar 2011 07:00:00 GMT'
const SERVED = 'Thu, 03 Mar 2011 07:00:00 GMT'
const ITEM = {
  type: 'Running',
  start_time: 'Tue, 1 Mar 2011 07:00:00',
  total_distance: 5000,
  duration: 1800,
  source: 'x',
  entry_mode: 'API',
  has_map: 'false',
}
const ACTIVITY = { ...ITEM, userID: 1, equipment: 'None', uri: '/fitnessActivities/1' }
const OTHER_USER = { authorization: 'Bearer another-t0k3n' }

function page(
  items: Record<string, unknown>[],
  options: { query?: [string, string][]; date?: string; previous?: string; request?: Record<string, string> } = {},
): ViewSpec {
  return {
    method: 'GET',
    path: '/fitnessActivities',
    query: options.query ?? [],
    request: { ...(options.request ?? AUTH), accept: mt('FitnessActivityFeed') },
    status: 200,
    response: {
      'content-type': mt('FitnessActivityFeed'),
      ...(options.date === undefined ? {} : { date: options.date }),
    },
    body: JSON.stringify({
      size: items.length,
      items,
      ...(options.previous === undefined ? {} : { previous: options.previous }),
    }),
  }
}

function activity(id: string, values: Record<string, unknown> = {}, lastModified = LM_1): ViewSpec {
  return {
    method: 'GET',
    path: `/fitnessActivities/${id}`,
    request: { ...AUTH, accept: mt('FitnessActivity') },
    status: 200,
    response: { 'content-type': mt('FitnessActivity'), 'last-modified': lastModified },
    body: JSON.stringify({ ...ACTIVITY, uri: `/fitnessActivities/${id}`, ...values }),
  }
}

const item = (id: string, values: Record<string, unknown> = {}) => ({
  ...ITEM,
  uri: `/fitnessActivities/${id}`,
  ...values,
})
const conditional = (
  method: 'GET' | 'HEAD',
  path: string,
  since: string,
  status: number,
  request: Record<string, string> = AUTH,
): ViewSpec => ({
  method,
  path,
  request: {
    ...request,
    accept: mt(path === '/fitnessActivities' ? 'FitnessActivityFeed' : 'FitnessActivity'),
    'if-modified-since': since,
  },
  status,
})
const edit = (id: string, values: Record<string, unknown>): ViewSpec => ({
  method: 'PUT',
  path: `/fitnessActivities/${id}`,
  request: { ...AUTH, 'content-type': mt('FitnessActivity') },
  requestBody: JSON.stringify({ notes: 'n' }),
  status: 200,
  response: { 'content-type': mt('FitnessActivity'), 'last-modified': LM_2 },
  body: JSON.stringify({ ...ACTIVITY, ...values }),
})
const create = (id: string, request: Record<string, string> = AUTH): ViewSpec => ({
  method: 'POST',
  path: '/fitnessActivities',
  request: { ...request, 'content-type': mt('NewFitnessActivity') },
  requestBody: JSON.stringify({ type: 'Running', start_time: 'Tue, 1 Mar 2011 07:00:00' }),
  status: 201,
  response: { location: `/fitnessActivities/${id}` },
})

/** The relation findings of each exchange in turn (the single-exchange rules are tested on their own). */
function judge(sequence: readonly ViewSpec[], relations = new ObservedRelations()): string[][] {
  return sequence.map((spec) =>
    relations
      .observe(view(spec))
      .map(
        (f) => `${f.kind} ${f.rule ?? '-'}${f.repeated === undefined ? '' : ` ${f.repeated.count}/${f.repeated.of}`}`,
      ),
  )
}

describe('item ↔ activity values (§2.2 items, §2.3 "same format as in 2.2")', () => {
  it.each<[string, ViewSpec[], string[][]]>([
    ['the same values', [page([item('1')], { date: SERVED }), activity('1')], [[], []]],
    [
      'the start time written another way, the same instant',
      [page([item('1', { start_time: 'Tuesday, 01 March 2011 07:00:00' })]), activity('1')],
      [[], []],
    ],
    [
      'an item spelling startTime (§2.2), the same instant',
      [page([{ ...item('1', { start_time: undefined }), startTime: 'Tue, 1 Mar 2011 07:00:00' }]), activity('1')],
      [[], []],
    ],
    [
      'the /activities/<id> uri form (§2.2)',
      [page([{ ...item('1'), uri: '/activities/1' }]), activity('1', { total_distance: 5 })],
      [[], ['violation FEED-ITEM-MATCHES-ACTIVITY']],
    ],
    [
      'an item lacking source, entry_mode and has_map (§2.2)',
      [
        page([item('1', { source: undefined, entry_mode: undefined, has_map: undefined })]),
        activity('1', { source: 'y' }),
      ],
      [[], []],
    ],
    [
      'the distance in other units, the item first',
      [page([item('1')], { date: SERVED }), activity('1', { total_distance: 5 })],
      [[], ['violation FEED-ITEM-MATCHES-ACTIVITY']],
    ],
    [
      'the start time an hour off, the activity first',
      [activity('1', { start_time: 'Tue, 1 Mar 2011 08:00:00' }), page([item('1')])],
      [[], ['violation FEED-ITEM-MATCHES-ACTIVITY']],
    ],
    [
      'has_map as a boolean on one side: only the value is compared',
      [page([item('1', { has_map: false })]), activity('1')],
      [[], []],
    ],
    [
      'two items of a page unlike their activities: one finding that counts them',
      [activity('1', { duration: 30 }), activity('2', { duration: 30 }), page([item('1'), item('2'), item('3')])],
      [[], [], ['violation FEED-ITEM-MATCHES-ACTIVITY 2/3']],
    ],
    [
      'an edit through the proxy between them',
      [page([item('1')]), edit('1', { duration: 60 }), activity('1', { duration: 60 }, LM_2)],
      [[], [], []],
    ],
    [
      'an activity changed after the page was served (its Last-Modified)',
      [page([item('1')], { date: LM_1 }), activity('1', { duration: 60 }, LM_2)],
      [[], []],
    ],
  ])('%s', (_title, sequence, expected) => {
    expect(judge(sequence)).toEqual(expected)
  })

  it('remembers a bounded number of activities, the most recent first', () => {
    const relations = new ObservedRelations({ maxActivities: 1, maxPages: 1 })
    // Item 1 was pushed out by item 2: only the most recent item is still there to compare with.
    expect(
      judge(
        [page([item('1'), item('2')]), activity('1', { total_distance: 5 }), activity('2', { total_distance: 5 })],
        relations,
      ),
    ).toEqual([[], [], ['violation FEED-ITEM-MATCHES-ACTIVITY']])
  })
  it('judges an activity read again by the values of its text, as the first time', () => {
    // The second read of the same text takes its values from the first (the path is not parsed again).
    const unlike = activity('1', { total_distance: 5 })
    expect(judge([unlike, page([item('1')]), unlike, activity('1'), page([item('1')])])).toEqual([
      [],
      ['violation FEED-ITEM-MATCHES-ACTIVITY'],
      ['violation FEED-ITEM-MATCHES-ACTIVITY'],
      [],
      [],
    ])
  })
})

describe('conditional answers against what the server said before (§4 rule 3)', () => {
  it.each<[string, ViewSpec[], string[][]]>([
    [
      'an activity 304 to a date before its Last-Modified',
      [activity('1', {}, LM_2), conditional('GET', '/fitnessActivities/1', LM_1, 304)],
      [[], ['violation COND-ACTIVITY-MODIFIED']],
    ],
    [
      'an activity 304 given before the change (its Date), recorded after the read that shows it',
      [activity('1', {}, LM_2), { ...conditional('GET', '/fitnessActivities/1', LM_1, 304), response: { date: LM_2 } }],
      [[], []],
    ],
    [
      'an activity 304 given after the change (its Date)',
      [
        activity('1', {}, LM_2),
        { ...conditional('GET', '/fitnessActivities/1', LM_1, 304), response: { date: SERVED } },
      ],
      [[], ['violation COND-ACTIVITY-MODIFIED']],
    ],
    [
      'an activity 304 asked for after the read that showed the change was in, within the same second',
      [
        { ...activity('1', {}, LM_2), clock: { start: 0, end: 10 } },
        {
          ...conditional('GET', '/fitnessActivities/1', LM_1, 304),
          response: { date: LM_2 },
          clock: { start: 11, end: 12 },
        },
      ],
      [[], ['violation COND-ACTIVITY-MODIFIED']],
    ],
    [
      'an activity 304 that overlapped the read that showed the change, within the same second',
      [
        { ...activity('1', {}, LM_2), clock: { start: 0, end: 10 } },
        {
          ...conditional('GET', '/fitnessActivities/1', LM_1, 304),
          response: { date: LM_2 },
          clock: { start: 5, end: 12 },
        },
      ],
      [[], []],
    ],
    [
      'an activity 304 to its Last-Modified',
      [activity('1', {}, LM_2), conditional('GET', '/fitnessActivities/1', LM_2, 304)],
      [[], []],
    ],
    ['an activity 304 never read before', [conditional('GET', '/fitnessActivities/1', LM_1, 304)], [[]]],
    [
      'a HEAD 304 to a date before its Last-Modified',
      [activity('1', {}, LM_2), conditional('HEAD', '/fitnessActivities/1', LM_1, 304)],
      [[], ['violation HEAD-MATCHES-GET']],
    ],
    [
      'an edit moves Last-Modified on',
      [activity('1', {}, LM_1), edit('1', {}), conditional('GET', '/fitnessActivities/1', LM_1, 304)],
      [[], [], ['violation COND-ACTIVITY-MODIFIED']],
    ],
    [
      'a feed 304 to a date before an activity created through the proxy',
      [create('9'), activity('9', {}, LM_2), conditional('GET', '/fitnessActivities', LM_1, 304)],
      [[], [], ['violation COND-FEED-MODIFIED']],
    ],
    [
      'a feed 304 to the date of that creation',
      [create('9'), activity('9', {}, LM_2), conditional('GET', '/fitnessActivities', LM_2, 304)],
      [[], [], []],
    ],
    [
      "another user's feed 304",
      [create('9'), activity('9', {}, LM_2), conditional('GET', '/fitnessActivities', LM_1, 304, OTHER_USER)],
      [[], [], []],
    ],
    [
      'a scoped feed 304 (the scope may leave the new activity out)',
      [
        create('9'),
        activity('9', {}, LM_2),
        { ...conditional('GET', '/fitnessActivities', LM_1, 304), query: [['noLaterThan', '2010-01-01']] },
      ],
      [[], [], []],
    ],
    [
      "an edit before the first read: its time is not the creation's",
      [create('9'), edit('9', {}), activity('9', {}, LM_2), conditional('GET', '/fitnessActivities', LM_1, 304)],
      [[], [], [], []],
    ],
  ])('%s', (_title, sequence, expected) => {
    expect(judge(sequence)).toEqual(expected)
  })
})

describe('the pages of a walk (§4 rule 2)', () => {
  const next = 'http://h/fitnessActivities?pageSize=4&page=2'
  const second = (n: number) =>
    page(
      Array.from({ length: n }, (_, i) => item(String(10 + i))),
      {
        query: [
          ['page', '2'],
          ['pageSize', '4'],
        ],
      },
    )
  it.each<[string, ViewSpec[], string[][]]>([
    [
      'a short page whose previous leads to more items',
      [page([item('1'), item('2'), item('3')], { query: [['pageSize', '4']], previous: next }), second(2)],
      [[], ['violation FEED-PAGE-SIZE']],
    ],
    [
      'a short page whose previous leads to an empty page',
      [page([item('1'), item('2'), item('3')], { query: [['pageSize', '4']], previous: next }), second(0)],
      [[], []],
    ],
    [
      'a full page, then a short last one',
      [page([item('1'), item('2'), item('3'), item('4')], { query: [['pageSize', '4']], previous: next }), second(2)],
      [[], []],
    ],
    [
      'another user reads the same link',
      [
        page([item('1'), item('2'), item('3')], { query: [['pageSize', '4']], previous: next }),
        { ...second(2), request: { ...OTHER_USER, accept: mt('FitnessActivityFeed') } },
      ],
      [[], []],
    ],
  ])('%s', (_title, sequence, expected) => {
    expect(judge(sequence)).toEqual(expected)
  })
})

describe('analyzeExchange with a session', () => {
  it('adds the relation findings to the single-exchange ones', () => {
    const relations = new ObservedRelations()
    analyzeExchange(view(page([item('1')])), relations)
    const found = analyzeExchange(view(activity('1', { total_distance: 5 })), relations)
    expect(found.map((f) => f.rule)).toContain('FEED-ITEM-MATCHES-ACTIVITY')
    expect(analyzeExchange(view(activity('1', { total_distance: 5 }))).map((f) => f.rule)).not.toContain(
      'FEED-ITEM-MATCHES-ACTIVITY',
    )
  })
})
