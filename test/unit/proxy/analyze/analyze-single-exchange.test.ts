// What one exchange says on its own about paging, conditional answers and the representation its
// media type names: tables of hand-written exchanges (STYLE §2.12, §2.16).
import { describe, expect, it } from 'vitest'
import { analyzeExchange } from '../../../../proxy/analyze/index.js'
import { AUTH, mt, view, type ViewSpec } from './exchange-views.js'

const found = (spec: ViewSpec) => analyzeExchange(view(spec)).map((f) => `${f.kind} ${f.rule ?? '-'}`)

const ITEM = {
  type: 'Running',
  start_time: 'Tue, 1 Mar 2011 07:00:00',
  total_distance: 1,
  duration: 1,
  source: 'x',
  entry_mode: 'API',
  has_map: 'false',
  uri: '/fitnessActivities/1',
}
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ ...ITEM, uri: `/fitnessActivities/${i + 1}` }))
const PREVIOUS = 'http://h/fitnessActivities?page=2&pageSize=4'

function feed(query: [string, string][], body: { size: number; items: number; previous?: string }): ViewSpec {
  return {
    method: 'GET',
    path: '/fitnessActivities',
    query,
    request: { ...AUTH, accept: mt('FitnessActivityFeed') },
    status: 200,
    response: { 'content-type': mt('FitnessActivityFeed') },
    body: JSON.stringify({
      size: body.size,
      items: items(body.items),
      ...(body.previous === undefined ? {} : { previous: body.previous }),
    }),
  }
}

describe('a feed page against its request (§2.2, §4 rules 1–2, §8)', () => {
  it.each<[string, ViewSpec, string[]]>([
    [
      'pageSize 4: a first page of 4 of 10, with previous',
      feed([['pageSize', '4']], { size: 10, items: 4, previous: PREVIOUS }),
      [],
    ],
    [
      'pageSize 4: 5 items',
      feed([['pageSize', '4']], { size: 10, items: 5, previous: PREVIOUS }),
      ['violation FEED-PAGE-SIZE'],
    ],
    [
      'pageSize 4: a first page of 3 of 10',
      feed([['pageSize', '4']], { size: 10, items: 3, previous: PREVIOUS }),
      ['violation FEED-PAGE-SIZE'],
    ],
    ['pageSize 4: the whole feed of 3', feed([['pageSize', '4']], { size: 3, items: 3 }), []],
    [
      'pageSize 4: the last page of a walk holds 2',
      feed(
        [
          ['pageSize', '4'],
          ['page', '3'],
        ],
        { size: 10, items: 2 },
      ),
      [],
    ],
    [
      'pageSize 4 with a scope: 2 items, size 2',
      feed(
        [
          ['pageSize', '4'],
          ['noEarlierThan', '2011-03-01'],
        ],
        { size: 2, items: 2 },
      ),
      [],
    ],
    [
      'pageSize 4 with a scope: 2 items though size says 9 (a scoped size is not the feed)',
      feed(
        [
          ['pageSize', '4'],
          ['noEarlierThan', '2011-03-01'],
        ],
        { size: 9, items: 2 },
      ),
      [],
    ],
    [
      'pageSize 4 with a scope: 6 items',
      feed(
        [
          ['pageSize', '4'],
          ['noLaterThan', '2011-03-01'],
        ],
        { size: 6, items: 6 },
      ),
      ['violation FEED-PAGE-SIZE'],
    ],
    [
      'a large pageSize capped at 100 on a feed of 150',
      feed([['pageSize', '1000']], { size: 150, items: 100, previous: PREVIOUS }),
      ['violation FEED-PAGE-SIZE'],
    ],
    [
      'pageSize 0 says nothing of the page (only the request is noted)',
      feed([['pageSize', '0']], { size: 10, items: 3, previous: PREVIOUS }),
      ['note -'],
    ],
    ['no pageSize: 25 of 30', feed([], { size: 30, items: 25, previous: PREVIOUS }), []],
    [
      'no pageSize: 26 items',
      feed([], { size: 30, items: 26, previous: PREVIOUS }),
      ['violation FEED-DEFAULT-PAGE-SIZE'],
    ],
    [
      'no pageSize: 20 of 30',
      feed([], { size: 30, items: 20, previous: PREVIOUS }),
      ['violation FEED-DEFAULT-PAGE-SIZE'],
    ],
  ])('%s', (_title, spec, expected) => {
    expect(found(spec)).toEqual(expected)
  })

  it.each<[string, ViewSpec, string[]]>([
    ['a first page of 25 of 30 without previous', feed([], { size: 30, items: 25 }), ['violation FEED-PREVIOUS-LINK']],
    ['the last page of a walk without previous', feed([['page', '2']], { size: 30, items: 5 }), []],
    [
      'a scoped page of 2, size 9, without previous',
      feed([['modifiedNoEarlierThan', '2011-03-01']], { size: 9, items: 2 }),
      [],
    ],
    [
      'a page scoped by start time with previous',
      feed(
        [
          ['noEarlierThan', '2011-03-01'],
          ['noLaterThan', '2011-03-31'],
        ],
        { size: 2, items: 2, previous: PREVIOUS },
      ),
      ['violation FEED-SCOPED-NO-PREVIOUS'],
    ],
    [
      'a page scoped by modification date alone with previous (§2.2 says "time-scoped")',
      feed([['modifiedNoEarlierThan', '2011-03-01']], { size: 2, items: 2, previous: PREVIOUS }),
      [],
    ],
  ])('previous: %s', (_title, spec, expected) => {
    expect(found(spec)).toEqual(expected)
  })
})

describe('a conditional answer on its own (§4 rule 3; RFC 9110 §13.1.3)', () => {
  const LAST_MODIFIED = 'Tue, 01 Mar 2011 07:00:00 GMT'
  const ACTIVITY = JSON.stringify({ ...ITEM, userID: 1, equipment: 'None' })
  const read = (since: string, status: number, response: Record<string, string> = {}): ViewSpec => ({
    method: 'GET',
    path: '/fitnessActivities/1',
    request: { ...AUTH, accept: mt('FitnessActivity'), 'if-modified-since': since },
    status,
    ...(status === 200
      ? {
          response: { 'content-type': mt('FitnessActivity'), 'last-modified': LAST_MODIFIED, ...response },
          body: ACTIVITY,
        }
      : {}),
  })
  const conditional = (spec: ViewSpec) => found(spec).filter((f) => / (COND|HEAD)-/.test(f))

  it.each<[string, ViewSpec, string[]]>([
    ['200 to the very date of its Last-Modified', read(LAST_MODIFIED, 200), ['violation COND-ACTIVITY-NOT-MODIFIED']],
    [
      "200 to a later date, before the server's Date",
      read('Wed, 02 Mar 2011 07:00:00 GMT', 200, { date: 'Thu, 03 Mar 2011 07:00:00 GMT' }),
      ['violation COND-ACTIVITY-NOT-MODIFIED'],
    ],
    [
      "200 to a date after the server's Date (may be taken as invalid)",
      read('Fri, 04 Mar 2011 07:00:00 GMT', 200, { date: 'Thu, 03 Mar 2011 07:00:00 GMT' }),
      [],
    ],
    ['200 to a later date, no Date to say it is past', read('Wed, 02 Mar 2011 07:00:00 GMT', 200), []],
    ['200 to an earlier date', read('Mon, 28 Feb 2011 07:00:00 GMT', 200), []],
    [
      '304 to a date that is no HTTP date',
      read('yesterday', 304),
      ['violation COND-IMS-FORMAT', 'violation COND-ACTIVITY-MODIFIED'],
    ],
    [
      '304 to the obsolete RFC 850 form (a server MUST accept it)',
      read('Tuesday, 01-Mar-11 07:00:00 GMT', 304),
      ['violation COND-IMS-FORMAT'],
    ],
    ['304 to an asctime date', read('Tue Mar  1 07:00:00 2011', 304), ['violation COND-IMS-FORMAT']],
    [
      'HEAD answered 304 to a valid date',
      {
        method: 'HEAD',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity'), 'if-modified-since': LAST_MODIFIED },
        status: 304,
      },
      [],
    ],
    [
      'HEAD answered 304 without If-Modified-Since',
      {
        method: 'HEAD',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity') },
        status: 304,
      },
      ['violation HEAD-HEADERS'],
    ],
    [
      'a feed 304 to a date that is no HTTP date',
      {
        method: 'GET',
        path: '/fitnessActivities',
        request: { ...AUTH, accept: mt('FitnessActivityFeed'), 'if-modified-since': '0' },
        status: 304,
      },
      ['violation COND-IMS-FORMAT', 'violation COND-FEED-MODIFIED'],
    ],
  ])('%s', (_title, spec, expected) => {
    expect(conditional(spec)).toEqual(expected)
  })
})

describe('every body validated by the media type it names (§1 rule 3)', () => {
  const profile = {
    name: 'n',
    location: 'l',
    athlete_type: 'a',
    gender: 'F',
    birthday: 'Sat, 1 Jan 1983 00:00:00',
    elite: false,
    profile: 'http://h/p',
    small_picture: 'http://h/s',
    normal_picture: 'http://h/n',
    medium_picture: 'http://h/m',
    large_picture: 'http://h/l',
  }
  const profileRead = (body: unknown): ViewSpec => ({
    method: 'GET',
    path: '/profile',
    request: { ...AUTH, accept: mt('Profile') },
    status: 200,
    response: { 'content-type': mt('Profile') },
    body: JSON.stringify(body),
  })

  it.each<[string, ViewSpec, string[]]>([
    ['a Profile read (a route §4 does not list)', profileRead(profile), ['unknown-endpoint -']],
    [
      'a Profile read with elite as text',
      profileRead({ ...profile, elite: 'yes' }),
      ['unknown-endpoint -', 'violation PROFILE-FIELDS'],
    ],
    [
      'a 404 that calls its body an Activity',
      {
        method: 'GET',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity') },
        status: 404,
        response: { 'content-type': mt('FitnessActivity') },
        body: '{"has_map":true}',
      },
      ['note -', 'violation ACTIVITY-FIELDS', 'violation ACTIVITY-FIELDS', 'violation ACTIVITY-HAS-MAP-TEXT'],
    ],
    [
      'a 404 in plain text',
      {
        method: 'GET',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity') },
        status: 404,
        response: { 'content-type': 'text/plain' },
        body: 'no such activity',
      },
      ['note -'],
    ],
  ])('%s', (_title, spec, expected) => {
    expect(found(spec).filter((f) => !f.startsWith('note PROFILE') && !f.startsWith('note ACTIVITY'))).toEqual(expected)
  })
})

describe('one problem on many items of an array is one finding', () => {
  it('counts the points of a path whose timestamp is not an integer', () => {
    const point = (i: number) => ({
      timestamp: i < 7 ? `${i}` : i,
      altitude: 1,
      longitude: 1,
      latitude: 1,
      type: 'gps',
    })
    const activity = { ...ITEM, userID: 1, equipment: 'None', path: Array.from({ length: 10 }, (_, i) => point(i)) }
    const spec: ViewSpec = {
      method: 'GET',
      path: '/fitnessActivities/1',
      request: { ...AUTH, accept: mt('FitnessActivity') },
      status: 200,
      response: { 'content-type': mt('FitnessActivity'), 'last-modified': 'Tue, 01 Mar 2011 07:00:00 GMT' },
      body: JSON.stringify(activity),
    }
    const timestamps = analyzeExchange(view(spec)).filter((f) => f.pointer?.endsWith('/timestamp'))
    expect(timestamps).toHaveLength(1)
    expect(timestamps[0]).toMatchObject({
      kind: 'violation',
      pointer: '/path/0/timestamp',
      repeated: { count: 7, of: 10 },
    })
    expect(timestamps[0]?.message).toMatch(
      /^7 of 10 items: \/path\/\*\/timestamp .*\(the first at \/path\/0\/timestamp\)$/,
    )
  })
})
