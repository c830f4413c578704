// Analyzer rules as tables of hand-written exchanges (STYLE §2.12, §2.16).
import { describe, expect, it } from 'vitest'
import { AUTH, mt, view, type ViewSpec as Spec } from './exchange-views.js'
import { analyzeExchange } from '../../../../proxy/analyze/index.js'
import { applyStrict } from '../../../../proxy/analyze/findings.js'

const DATE = 'Tue, 01 Mar 2011 07:00:00 GMT'
const ACTIVITY = {
  uri: '/fitnessActivities/1',
  userID: 1,
  type: 'Running',
  equipment: 'None',
  start_time: 'Tue, 1 Mar 2011 07:00:00',
  total_distance: 1,
  distance: [],
  duration: 1,
  heart_rate: [],
  calories: [],
  total_climb: 0,
  path: [],
  comments: '/fitnessActivities/1/comments',
  source: 'x',
  entry_mode: 'API',
  has_map: 'false',
  ...Object.fromEntries(
    [
      'strength_training_activities',
      'background_activities',
      'sleep',
      'nutrition',
      'weight',
      'general_measurements',
      'diabetes',
    ].map((set) => [`nearest_teammate_${set}`, []]),
  ),
}

const found = (spec: Spec) => analyzeExchange(view(spec)).map((f) => `${f.kind} ${f.rule ?? '-'}`)

describe('request rules', () => {
  it.each<[string, Spec, string[]]>([
    ['a conforming read', { method: 'GET', path: '/user', request: { ...AUTH, accept: mt('User') } }, []],
    [
      'no Authorization',
      { method: 'GET', path: '/user', request: { accept: mt('User') } },
      ['violation AUTH-BEARER-SENT'],
    ],
    [
      'Basic instead of Bearer',
      { method: 'GET', path: '/user', request: { authorization: 'Basic dXNlcjpwYXNz', accept: mt('User') } },
      ['violation AUTH-BEARER-SENT'],
    ],
    [
      'Accept: */*',
      { method: 'GET', path: '/user', request: { ...AUTH, accept: '*/*' } },
      ['violation MEDIA-TYPE-ACCEPT'],
    ],
    [
      'Accept list naming the type',
      { method: 'GET', path: '/user', request: { ...AUTH, accept: `text/html, ${mt('User')};q=0.9` } },
      [],
    ],
    [
      'HEAD without Accept is only noted',
      { method: 'HEAD', path: '/fitnessActivities/1', request: AUTH },
      ['note MEDIA-TYPE-ACCEPT'],
    ],
    [
      'create without Content-Type',
      {
        method: 'POST',
        path: '/fitnessActivities',
        request: AUTH,
        requestBody: '{"type":"Running","start_time":"Tue, 1 Mar 2011 07:00:00"}',
      },
      ['violation MEDIA-TYPE-CONTENT-TYPE'],
    ],
    [
      'create with a body that is not JSON',
      {
        method: 'POST',
        path: '/fitnessActivities',
        request: { ...AUTH, 'content-type': mt('NewFitnessActivity') },
        requestBody: 'type=Running',
      },
      ['violation NEW-ACTIVITY-BODY'],
    ],
    [
      'live update without a body',
      {
        method: 'POST',
        path: '/fitnessActivities/1',
        request: { ...AUTH, 'content-type': mt('LiveFitnessActivityUpdate') },
      },
      ['violation LIVE-UPDATE-BODY'],
    ],
    [
      'an unknown feed parameter',
      {
        method: 'GET',
        path: '/fitnessActivities',
        query: [['limit', '3']],
        request: { ...AUTH, accept: mt('FitnessActivityFeed') },
      },
      ['note -'],
    ],
    ['an unknown endpoint', { method: 'GET', path: '/teams', request: AUTH }, ['unknown-endpoint -']],
    ['PATCH of an activity', { method: 'PATCH', path: '/fitnessActivities/1', request: AUTH }, ['unknown-endpoint -']],
    [
      'If-Modified-Since as an HTTP date in GMT',
      {
        method: 'GET',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity'), 'if-modified-since': DATE },
      },
      [],
    ],
    [
      'If-Modified-Since in ISO 8601',
      {
        method: 'GET',
        path: '/fitnessActivities',
        request: { ...AUTH, accept: mt('FitnessActivityFeed'), 'if-modified-since': '2011-03-01T07:00:00Z' },
      },
      ['violation COND-IMS-FORMAT'],
    ],
    [
      'If-Modified-Since in UTC, not GMT',
      {
        method: 'GET',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity'), 'if-modified-since': 'Tue, 01 Mar 2011 07:00:00 UTC' },
      },
      ['violation COND-IMS-FORMAT'],
    ],
    [
      'If-Modified-Since in the obsolete RFC 850 form',
      {
        method: 'GET',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity'), 'if-modified-since': 'Tuesday, 01-Mar-11 07:00:00 GMT' },
      },
      ['violation COND-IMS-FORMAT'],
    ],
  ])('%s', (_title, spec, expected) => {
    expect(found(spec)).toEqual(expected)
  })
})

describe('response rules', () => {
  const read = { method: 'GET', path: '/fitnessActivities/1', request: { ...AUTH, accept: mt('FitnessActivity') } }
  it.each<[string, Spec, string[]]>([
    [
      'a conforming activity read',
      {
        ...read,
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': DATE },
        body: JSON.stringify(ACTIVITY),
      },
      [],
    ],
    [
      'has_map as a JSON boolean',
      {
        ...read,
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': DATE },
        body: JSON.stringify({ ...ACTIVITY, has_map: false }),
      },
      ['violation ACTIVITY-HAS-MAP-TEXT'],
    ],
    [
      'no Last-Modified',
      { ...read, status: 200, response: { 'content-type': mt('FitnessActivity') }, body: JSON.stringify(ACTIVITY) },
      ['violation LAST-MODIFIED-READ'],
    ],
    [
      'an RFC 850 Last-Modified',
      {
        ...read,
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': 'Tuesday, 01-Mar-11 07:00:00 GMT' },
        body: JSON.stringify(ACTIVITY),
      },
      ['violation LAST-MODIFIED-READ'],
    ],
    [
      'a wrong media type',
      {
        ...read,
        status: 200,
        response: { 'content-type': 'application/json', 'last-modified': DATE },
        body: JSON.stringify(ACTIVITY),
      },
      ['violation MEDIA-TYPE-RESPONSE'],
    ],
    [
      'a body that is not JSON',
      {
        ...read,
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': DATE },
        body: '<html>',
      },
      ['violation BODY-IS-JSON'],
    ],
    ['304 without If-Modified-Since', { ...read, status: 304 }, ['violation COND-ACTIVITY-MODIFIED']],
    [
      'a 404 under the ErrorMessage media type',
      {
        ...read,
        status: 404,
        response: { 'content-type': mt('ErrorMessage') },
        body: '{"reason":"Insufficient permission"}',
      },
      ['note -', 'violation ERROR-MEDIA-TYPE'],
    ],
    ['304 to If-Modified-Since', { ...read, request: { ...read.request, 'if-modified-since': DATE }, status: 304 }, []],
    ['a 404', { ...read, status: 404, response: { 'content-type': 'text/plain' }, body: 'not found' }, ['note -']],
    ['a 500', { ...read, status: 500 }, ['note ERROR-CLIENT-NOT-5XX']],
    [
      '200 where §4 says 201',
      {
        method: 'POST',
        path: '/fitnessActivities',
        request: { ...AUTH, 'content-type': mt('NewFitnessActivity') },
        requestBody: '{"type":"Running","start_time":"Tue, 1 Mar 2011 07:00:00"}',
        status: 200,
      },
      ['violation CREATE-STATUS'],
    ],
    [
      '201 with an absolute Location and a body',
      {
        method: 'POST',
        path: '/fitnessActivities',
        request: { ...AUTH, 'content-type': mt('NewFitnessActivity') },
        requestBody: '{"type":"Running","start_time":"Tue, 1 Mar 2011 07:00:00"}',
        status: 201,
        response: { location: 'http://h/fitnessActivities/2' },
        body: '{}',
      },
      ['violation CREATE-LOCATION', 'violation CREATE-NO-BODY'],
    ],
    [
      '204 announcing a body',
      {
        method: 'DELETE',
        path: '/fitnessActivities/1',
        request: AUTH,
        status: 204,
        response: { 'content-length': '12' },
      },
      ['violation DELETE-STATUS'],
    ],
    [
      '204 with Transfer-Encoding (RFC 9112 §6.1)',
      {
        method: 'DELETE',
        path: '/fitnessActivities/1',
        request: AUTH,
        status: 204,
        response: { 'transfer-encoding': 'chunked' },
      },
      ['violation DELETE-STATUS'],
    ],
    [
      '304 with the Transfer-Encoding a 200 would have (RFC 9112 §6.1 allows it)',
      {
        ...read,
        request: { ...read.request, 'if-modified-since': DATE },
        status: 304,
        response: { 'transfer-encoding': 'chunked' },
      },
      [],
    ],
    [
      '304 with the Content-Length a 200 would have (RFC 9110 §8.6 allows it)',
      {
        ...read,
        request: { ...read.request, 'if-modified-since': DATE },
        status: 304,
        response: { 'content-length': '512' },
      },
      [],
    ],
    [
      'HEAD with the Transfer-Encoding a GET would have: only the missing Content-Length',
      {
        method: 'HEAD',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity') },
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': DATE, 'transfer-encoding': 'chunked' },
      },
      ['violation HEAD-HEADERS'],
    ],
    [
      'a 1xx with Transfer-Encoding',
      { ...read, status: 103, response: { 'transfer-encoding': 'chunked' } },
      ['note -', 'violation -'],
    ],
    [
      'HEAD without Content-Length',
      {
        method: 'HEAD',
        path: '/fitnessActivities/1',
        request: { ...AUTH, accept: mt('FitnessActivity') },
        status: 200,
        response: { 'content-type': mt('FitnessActivity'), 'last-modified': DATE },
      },
      ['violation HEAD-HEADERS'],
    ],
    [
      '403 with a text body',
      {
        method: 'GET',
        path: '/user',
        request: { ...AUTH, accept: mt('User') },
        status: 403,
        response: { 'content-type': 'text/plain' },
        body: 'no',
      },
      ['violation ERROR-MEDIA-TYPE', 'violation BODY-IS-JSON'],
    ],
  ])('%s', (_title, spec, expected) => {
    expect(found(spec)).toEqual(expected)
  })

  it('reports the §2.2 irregularities as irregularities, and --strict turns them into violations', () => {
    const feed = {
      size: 1,
      items: [
        {
          type: 'Running',
          startTime: 'Tue, 1 Mar 2011 07:00:00',
          total_distance: 1,
          duration: 1,
          uri: '/activities/1',
        },
      ],
    }
    const spec: Spec = {
      method: 'GET',
      path: '/fitnessActivities',
      request: { ...AUTH, accept: mt('FitnessActivityFeed') },
      status: 200,
      response: { 'content-type': mt('FitnessActivityFeed') },
      body: JSON.stringify(feed),
    }
    const findings = analyzeExchange(view(spec))
    const irregular = findings.filter((f) => f.kind === 'irregularity').map((f) => f.rule)
    expect(new Set(irregular)).toEqual(
      new Set(['IRREG-START-TIME-SPELLING', 'IRREG-ITEM-FIELDS-ABSENT', 'IRREG-ITEM-URI-FORM']),
    )
    expect(applyStrict(findings).filter((f) => f.kind === 'irregularity')).toEqual([])
  })

  it('notes delete_health carried as text (§7)', () => {
    const spec: Spec = {
      method: 'GET',
      path: '/user',
      request: { ...AUTH, accept: mt('User') },
      status: 403,
      response: { 'content-type': mt('ErrorMessage') },
      body: '{"reason":"Revoked","delete_health":"false"}',
    }
    const findings = analyzeExchange(view(spec))
    expect(findings.map((f) => `${f.kind} ${f.pointer ?? ''}`)).toEqual(['note /delete_health'])
  })
})
