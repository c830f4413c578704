import { describe, expect, it } from 'vitest'
import { toSurveyItem, type SurveyItem } from '../../../src/spec/survey/feed-items.js'
import { formatHttpDateAs } from '../../../src/spec/survey/http-date-forms.js'
import { pickCandidates, pickSample, type ReadCandidate } from '../../../src/spec/survey/pick-sample.js'
import { pageSizesFor } from '../../../src/spec/survey/checks/paging-walks.js'
import { surveysByDefault } from '../../../src/spec/survey/survey-default.js'
import { parseHttpDate } from '../../../src/validation/time-formats.js'

describe('the three HTTP-date forms a recipient must accept (RFC 9110 §5.6.7)', () => {
  it.each([
    ['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['RFC 850', 'Sunday, 06-Nov-94 08:49:37 GMT'],
    ['asctime', 'Sun Nov  6 08:49:37 1994'],
  ] as const)('writes %s as the RFC example does, and it reads back', (form, text) => {
    expect(formatHttpDateAs(784111777000, form)).toBe(text)
    expect(parseHttpDate(text)).toBe(784111777000)
  })
})

describe('page sizes of the survey walks', () => {
  it.each([
    [272, [1, 68, 272, 273, 1000]],
    [13, [1, 13, 14, 1000]],
    [400, [100, 400, 401, 1000]],
    [1500, [100, 1500, 1501, 1502]],
  ])('a feed of %i is walked with %j', (size, expected) => {
    expect(pageSizesFor(size)).toEqual(expected)
  })
})

const item = (id: number, start: string, uri = `/fitnessActivities/${id}`): SurveyItem =>
  toSurveyItem({ uri, start_time: start })!

describe('the sample', () => {
  const items = [
    item(1, 'Tue, 1 Mar 2011 07:00:00'),
    item(2, 'Sat, 5 Mar 2011 02:10:00', '/activities/2'),
    item(3, 'Sun, 6 Mar 2011 08:00:00'),
    item(4, 'Sun, 6 Mar 2011 12:00:00'),
    item(5, 'Mon, 7 Mar 2011 23:40:00'),
    item(6, 'Tue, 8 Mar 2011 09:00:00'),
  ]

  it('picks candidates from the items alone, each with its reasons, the same way every time', () => {
    const reasons = Object.fromEntries(pickCandidates(items, 6).map((c) => [c.item.id, c.reasons]))
    expect(reasons).toEqual({
      '1': ['oldest start time', 'uri form /fitnessActivities/<id>'],
      '2': ['starts shortly after midnight (02:10:00 displayed)', 'uri form /activities/<id>'],
      '3': ['one of 2 activities on 2011-03-06'],
      '4': ['one of 2 activities on 2011-03-06'],
      '5': ['starts shortly before midnight (23:40:00 displayed)'],
      '6': ['newest start time'],
    })
    expect(pickCandidates(items, 6)).toEqual(pickCandidates(items, 6))
  })

  it('adds what only a read shows, and keeps only candidates with a reason', () => {
    const read = (
      c: { item: SurveyItem; reasons: readonly string[] },
      activity: Record<string, unknown>,
      bodyBytes: number,
      lagDays = 0,
    ): ReadCandidate => ({
      ...c,
      activity,
      bodyBytes,
      read: {
        request: { method: 'GET', url: c.item.uri, headers: {} },
        curl: '',
        status: 200,
        headers: {},
        body: activity,
        wireBytes: bodyBytes,
        bodyBytes,
      },
      lastModified: c.item.start! + lagDays * 86_400_000,
    })
    const spread = { item: item(9, 'Wed, 9 Mar 2011 10:00:00'), reasons: [] }
    const sample = pickSample([
      read({ item: items[0]!, reasons: ['oldest start time'] }, { notes: 'plain' }, 100),
      read(spread, { notes: 'Läufchen', path: [{}, {}, {}] }, 5000, 12),
    ])
    expect(sample.map((s) => [s.item.id, s.reasons])).toEqual([
      ['1', ['oldest start time']],
      [
        '9',
        [
          'largest body read (5000 bytes)',
          'most path points read (3)',
          'notes with non-ASCII text',
          'Last-Modified 12 days after its start',
        ],
      ],
    ])
  })
})

describe('whether a run surveys the account when no flag says', () => {
  it.each([
    [{ paths: [], tags: [] }, true],
    [{ paths: ['suites/user'], tags: [] }, false],
    [{ paths: [], tags: ['feed'] }, false],
    [{ paths: [], tags: [], grep: 'paging' }, false],
    [{ paths: [], tags: [], shard: { index: 1, count: 2 } }, false],
  ])('%j → %s', (run, expected) => {
    expect(surveysByDefault(run)).toBe(expected)
  })
})
