import { describe, expect, it } from 'vitest'
import { evaluateExpression } from '../../../src/expression/evaluate-expression.js'
import { EXPRESSION_FUNCTIONS } from '../../../src/expression/functions.js'

const MAR_1_1987 = Date.UTC(1987, 2, 1)

const scope = {
  status: 200,
  headers: {
    'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT',
    date: 'Mon, 07 Nov 1994 08:49:37 GMT',
    location: '/fitnessActivities/12',
  },
  body: {
    size: 3,
    previous: 'https://api.example/fitnessActivities?page=2&pageSize=5',
    items: [
      { uri: '/fitnessActivities/12', start_time: 'Sun, 1 Mar 1987 07:00:00', has_map: 'true' },
      { uri: '/activities/9', start_time: 'Mon, 2 Mar 1987 07:00:00', has_map: 'false' },
      { uri: 'https://api.example/fitnessActivities/12/', start_time: 'Tue, 3 Mar 1987 07:00:00', has_map: true },
    ],
    nested: { list: [{ id: 1 }, { id: 2 }] },
    userID: 7,
    empty: null,
  },
  run: { farYear: 1987, farYearText: '1987' },
  ids: ['b', 'a', 'b'],
  uriWithSpace: '/fitnessActivities/a%20b',
}

describe('evaluateExpression', () => {
  it.each([
    // paths
    { source: 'status', value: 200 },
    { source: 'body.userID', value: 7 },
    { source: 'body.empty', value: null },
    { source: 'body.items[1].uri', value: '/activities/9' },
    { source: 'body.items[5].uri', value: undefined },
    { source: 'body.missing.deeper', value: undefined },
    { source: 'body.userID.x', value: undefined },
    { source: 'nothing', value: undefined },
    { source: 'toString', value: undefined },
    { source: 'body.items.length', value: undefined },
    { source: 'headers.last-modified', value: 'Sun, 06 Nov 1994 08:49:37 GMT' },
    // ??
    { source: 'headers.etag ?? headers.date', value: 'Mon, 07 Nov 1994 08:49:37 GMT' },
    { source: 'headers.last-modified ?? headers.date', value: 'Sun, 06 Nov 1994 08:49:37 GMT' },
    { source: 'body.empty ?? 5', value: null },
    { source: 'body.a ?? body.b ?? 5', value: 5 },
    { source: 'body.a ?? body.b', value: undefined },
    // [*]
    {
      source: 'body.items[*].uri',
      value: ['/fitnessActivities/12', '/activities/9', 'https://api.example/fitnessActivities/12/'],
    },
    { source: 'body.nested.list[*].id', value: [1, 2] },
    { source: 'body.nested.list[*].name', value: [undefined, undefined] },
    { source: 'body.userID[*]', value: undefined },
    // literals
    { source: "'2011-03-01' | time", value: Date.UTC(2011, 2, 1) },
    { source: '42', value: 42 },
  ])('reads paths, ?? alternatives, [*] lists and literals: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, scope)).toEqual(value)
  })

  it.each([
    // element-wise over a list
    { source: 'body.items[*].uri | lastSegment', value: ['12', '9', '12'] },
    { source: 'body.items[*].has_map | bool', value: [true, false, true] },
    { source: 'body.items[*].start_time | ymd', value: ['1987-03-01', '1987-03-02', '1987-03-03'] },
    // list functions see the whole list
    { source: 'body.items[*].uri | length', value: 3 },
    { source: 'body.items[*].uri | lastSegment | unique', value: ['12', '9'] },
    { source: 'body.items[*].uri | lastSegment | unique | length', value: 2 },
    { source: 'ids | sort', value: ['a', 'b', 'b'] },
    { source: 'ids | unique | sort', value: ['a', 'b'] },
    { source: 'body.nested.list | unique | length', value: 2 },
    // a list function applied to text
    { source: 'headers.location | length', value: 21 },
  ])(
    'maps element-wise functions over a list, while length, unique and sort see the list: $source → $value',
    ({ source, value }) => {
      expect(evaluateExpression(source, scope)).toEqual(value)
    },
  )

  it.each([
    { source: 'headers.location | lastSegment', value: '12' },
    { source: "'/activities/12' | lastSegment", value: '12' },
    { source: "'/fitnessActivities/12' | lastSegment", value: '12' },
    { source: "'https://api.example/v1/fitnessActivities/12?x=1' | lastSegment", value: '12' },
    { source: 'uriWithSpace | lastSegment', value: 'a b' },
    { source: 'body.previous | query(pageSize)', value: '5' },
    { source: "body.previous | query('page')", value: '2' },
    { source: 'body.previous | query(noEarlierThan)', value: undefined },
    { source: "'/fitnessActivities?pageSize=25' | query(pageSize)", value: '25' },
    { source: 'body.previous | urlPath', value: '/fitnessActivities' },
    { source: 'body.userID | lastSegment', value: undefined },
  ])('takes ids and query parameters from URIs of any form: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, scope)).toEqual(value)
  })

  it.each([
    { source: 'run.farYear | date(3, 1)', value: MAR_1_1987 },
    { source: 'run.farYearText | date(3, 1)', value: MAR_1_1987 },
    { source: 'run.farYear | date(3, 1) | specTime', value: 'Sun, 1 Mar 1987 00:00:00' },
    { source: 'run.farYear | date(7, 3, 7, 12, 34) | specTime', value: 'Fri, 3 Jul 1987 07:12:34' },
    { source: 'run.farYear | date(3, 1) | addDays(1) | specTime', value: 'Mon, 2 Mar 1987 00:00:00' },
    { source: 'run.farYear | date(3, 1) | addDays(-1) | ymd', value: '1987-02-28' },
    { source: 'run.farYear | date(3, 1) | addSeconds(90)', value: MAR_1_1987 + 90_000 },
    { source: 'run.farYear | date(3, 1) | ymd', value: '1987-03-01' },
    { source: 'run.farYear | date(3, 1) | httpDate', value: 'Sun, 01 Mar 1987 00:00:00 GMT' },
    { source: 'headers.last-modified | time', value: 784111777000 },
    { source: 'headers.last-modified | addDays(1) | httpDate', value: 'Mon, 07 Nov 1994 08:49:37 GMT' },
    { source: "'Tue, 1 Mar 2011 07:00:00' | time", value: 1298962800000 },
    { source: "'2011-03-01T07:00:00' | time", value: 1298962800000 },
    { source: "'not a time' | time", value: undefined },
    { source: 'body | date(3, 1)', value: undefined },
  ])('builds, moves and formats times: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, scope)).toEqual(value)
  })

  it.each([
    { source: "'true' | bool", value: true },
    { source: "'false' | bool", value: false },
    { source: 'body.items[2].has_map | bool', value: true },
    { source: "'yes' | bool", value: undefined },
    { source: "'TRUE' | bool", value: undefined },
    { source: "'12' | number", value: 12 },
    { source: "' ' | number", value: undefined },
    { source: "'12a' | number", value: undefined },
    { source: 'body.userID | string', value: '7' },
    { source: 'body.nested | string', value: '{"list":[{"id":1},{"id":2}]}' },
    { source: 'body.userID | min(5)', value: 5 },
    { source: 'body.userID | max(5)', value: 7 },
    { source: 'body.items[0] | omit(uri, start_time)', value: { has_map: 'true' } },
    { source: 'body.items[0] | pick(uri)', value: { uri: '/fitnessActivities/12' } },
    {
      source: 'body.items[*] | omit(start_time, has_map)',
      value: [
        { uri: '/fitnessActivities/12' },
        { uri: '/activities/9' },
        { uri: 'https://api.example/fitnessActivities/12/' },
      ],
    },
    { source: 'body.nested | keys', value: ['list'] },
    { source: 'body.userID | keys', value: undefined },
    { source: 'body | noSuchFunction', value: undefined },
  ])('converts and reshapes values: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, scope)).toEqual(value)
  })

  it('leaves the object it omits from unchanged', () => {
    const item = { uri: '/fitnessActivities/1', notes: 'x' }
    expect(evaluateExpression('item | omit(notes)', { item })).toEqual({ uri: '/fitnessActivities/1' })
    expect(item).toEqual({ uri: '/fitnessActivities/1', notes: 'x' })
  })

  it.each([
    { source: "item | append(notes, ', again')", value: { uri: '/fitnessActivities/1', notes: 'x, again', userID: 7 } },
    { source: "item | append(missing, 'y')", value: undefined },
    { source: "item | append(userID, 'y')", value: undefined },
  ])('appends to a text field: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, { item: { uri: '/fitnessActivities/1', notes: 'x', userID: 7 } })).toEqual(value)
  })

  it.each([
    { source: "status | when(403, 'a', 'b')", value: 'b' },
    { source: "code | when(403, 'a', 'b')", value: 'a' },
    { source: "text | when(403, 'a', 'b')", value: 'a' },
    { source: "missing | when(403, 'a', 'b')", value: 'b' },
  ])('chooses by the value: $source → $value', ({ source, value }) => {
    expect(evaluateExpression(source, { status: 404, code: 403, text: '403' })).toBe(value)
  })

  it('views a feed item and its activity alike: id from the uri, the start time as an instant under either spelling', () => {
    const activity = {
      uri: '/fitnessActivities/12',
      start_time: 'Sun, 1 Mar 1987 07:00:00',
      type: 'Running',
      total_distance: 5,
      duration: 60,
      source: 'App',
      notes: 'x',
      path: [],
    }
    const item = {
      uri: '/activities/12',
      startTime: 'Sunday, 01 March 1987 07:00:00',
      type: 'Running',
      total_distance: 5,
      duration: 60,
    }
    const expected = { id: '12', start: Date.UTC(1987, 2, 1, 7), type: 'Running', total_distance: 5, duration: 60 }
    expect(evaluateExpression('activity | feedItemView', { activity })).toEqual({ ...expected, source: 'App' })
    expect(evaluateExpression('items[*] | feedItemView', { items: [item] })).toEqual([expected])
    expect(evaluateExpression("'text' | feedItemView", {})).toBeUndefined()
  })

  it("compares has_map by value in a feed-item view: its type is the HAS-MAP-TEXT rules' to judge", () => {
    expect(evaluateExpression('activity | feedItemView', { activity: { has_map: true } })).toEqual({ has_map: 'true' })
    expect(evaluateExpression('item | feedItemView', { item: { has_map: 'false' } })).toEqual({ has_map: 'false' })
  })

  it("reads a field of what a function gave; over a list, of each element that has it (a date scope's start instants)", () => {
    const items = [
      { uri: '/fitnessActivities/1', start_time: 'Tue, 3 Mar 1987 12:00:00' },
      { uri: '/fitnessActivities/2' },
      { uri: '/fitnessActivities/3', startTime: 'Sat, 7 Mar 1987 00:00:00' },
    ]
    expect(evaluateExpression('items[*] | feedItemView | field(start)', { items })).toEqual([
      Date.UTC(1987, 2, 3, 12),
      Date.UTC(1987, 2, 7),
    ])
    expect(evaluateExpression('item | feedItemView | field(id)', { item: items[1] })).toBe('2')
    expect(evaluateExpression("'text' | field(id)", {})).toBeUndefined()
  })

  it('lists every function of the scenario format', () => {
    expect(Object.keys(EXPRESSION_FUNCTIONS).sort()).toEqual(
      [
        'addDays',
        'addSeconds',
        'append',
        'bool',
        'date',
        'feedItemView',
        'field',
        'httpDate',
        'keys',
        'lastSegment',
        'length',
        'max',
        'min',
        'number',
        'omit',
        'pick',
        'query',
        'sort',
        'specTime',
        'string',
        'time',
        'unique',
        'urlPath',
        'when',
        'ymd',
      ].sort(),
    )
  })
})
