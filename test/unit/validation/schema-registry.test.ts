import { describe, expect, it } from 'vitest'
import { REPRESENTATION_NAMES, type RepresentationName } from '../../../src/spec/representations.js'
import {
  checkRepresentation,
  type SchemaProblem,
  validateRepresentation,
} from '../../../src/validation/schema-registry.js'
import { checkSchema } from '../../../src/execute/step/schema-check.js'
import { completeBodies, feedItem, pathPoint } from './bodies.js'

const { User: user, FitnessActivityFeed: feed, FitnessActivity: activity, Profile: profile } = completeBodies
const feedWith = (item: Record<string, unknown>): Record<string, unknown> => ({ ...feed, items: [item] })
const without = (body: Record<string, unknown>, ...fields: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !fields.includes(key)))
const ofSeverity = (problems: SchemaProblem[], severity: SchemaProblem['severity']): SchemaProblem[] =>
  problems.filter((p) => p.severity === severity)

describe('validateRepresentation: valid bodies', () => {
  it.each(REPRESENTATION_NAMES)('finds no problem in a complete %s', (name) => {
    expect(validateRepresentation(name, completeBodies[name])).toEqual([])
  })

  it.each<{ title: string; name: RepresentationName; body: unknown }>([
    {
      title: 'unknown extra fields at every level',
      name: 'FitnessActivityFeed',
      body: { ...feed, extra: 1, items: [{ ...feedItem, colour: 'red' }] },
    },
    {
      title: 'an unknown field in a path point',
      name: 'FitnessActivity',
      body: { ...activity, path: [{ ...pathPoint, speed: 3 }] },
    },
    {
      title: 'delete_health as the text "true"',
      name: 'ErrorMessage',
      body: { reason: 'Revoked', delete_health: 'true' },
    },
    {
      title: 'delete_health as the boolean true',
      name: 'ErrorMessage',
      body: { reason: 'Revoked', delete_health: true },
    },
    {
      title: 'Insufficient permission without delete_health',
      name: 'ErrorMessage',
      body: { reason: 'Insufficient permission' },
    },
    {
      title: 'Revoked without delete_health (not expected: conditional)',
      name: 'ErrorMessage',
      body: { reason: 'Revoked' },
    },
    {
      title: 'full weekday and month names, leading zero',
      name: 'FitnessActivity',
      body: { ...activity, start_time: 'Tuesday, 01 March 2011 07:00:00' },
    },
    {
      title: 'a path point type outside start/end/gps',
      name: 'FitnessActivity',
      body: { ...activity, path: [{ ...pathPoint, type: 'pause' }] },
    },
    {
      title: 'an entry_mode other than API or Web',
      name: 'FitnessActivity',
      body: { ...activity, entry_mode: 'Mobile' },
    },
    {
      title: 'an activity without notes or previous',
      name: 'FitnessActivity',
      body: without(activity, 'notes', 'previous'),
    },
    { title: 'a feed without previous', name: 'FitnessActivityFeed', body: without(feed, 'previous') },
    { title: 'an empty feed page', name: 'FitnessActivityFeed', body: { size: 0, items: [] } },
    { title: 'an empty new activity', name: 'NewFitnessActivity', body: {} },
    { title: 'any post_to_ network', name: 'NewFitnessActivity', body: { post_to_mastodon: true } },
    { title: 'an empty live update', name: 'LiveFitnessActivityUpdate', body: {} },
    { title: 'an activity edit with one field', name: 'FitnessActivityEdit', body: { has_map: 'false' } },
    { title: 'an empty profile edit', name: 'ProfileEdit', body: {} },
  ])('accepts $title', ({ name, body }) => {
    expect(validateRepresentation(name, body)).toEqual([])
  })
})

describe('validateRepresentation: errors', () => {
  it.each<{ title: string; name: RepresentationName; body: unknown; rule: string; pointer: string }>([
    {
      title: 'userID as a string',
      name: 'User',
      body: { ...user, userID: '1234567890' },
      rule: 'USER-FIELDS',
      pointer: '/userID',
    },
    {
      title: 'no fitness_activities link',
      name: 'User',
      body: without(user, 'fitness_activities'),
      rule: 'USER-FIELDS',
      pointer: '',
    },
    {
      title: 'an absolute User link',
      name: 'User',
      body: { ...user, profile: 'https://api.example/profile' },
      rule: 'USER-LINKS-RELATIVE',
      pointer: '/profile',
    },
    {
      title: 'a network-path User link',
      name: 'User',
      body: { ...user, team: '//api.example/team' },
      rule: 'USER-LINKS-RELATIVE',
      pointer: '/team',
    },
    { title: 'a body that is not an object', name: 'User', body: [user], rule: 'USER-FIELDS', pointer: '' },
    {
      title: 'a feed without items',
      name: 'FitnessActivityFeed',
      body: without(feed, 'items'),
      rule: 'FEED-FIELDS',
      pointer: '',
    },
    {
      title: 'a negative feed size',
      name: 'FitnessActivityFeed',
      body: { ...feed, size: -1 },
      rule: 'FEED-FIELDS',
      pointer: '/size',
    },
    {
      title: 'a relative previous link',
      name: 'FitnessActivityFeed',
      body: { ...feed, previous: '/fitnessActivities?page=1' },
      rule: 'FEED-FIELDS',
      pointer: '/previous',
    },
    {
      title: 'has_map as a boolean in an item',
      name: 'FitnessActivityFeed',
      body: feedWith({ ...feedItem, has_map: true }),
      rule: 'FEED-ITEM-HAS-MAP-TEXT',
      pointer: '/items/0/has_map',
    },
    {
      title: 'an ISO start_time in an item',
      name: 'FitnessActivityFeed',
      body: feedWith({ ...feedItem, start_time: '2011-03-01T07:00:00Z' }),
      rule: 'FEED-ITEM-START-TIME-FORMAT',
      pointer: '/items/0/start_time',
    },
    {
      title: 'an ISO startTime in an item',
      name: 'FitnessActivityFeed',
      body: feedWith({ ...without(feedItem, 'start_time'), startTime: '2011-03-01T07:00:00Z' }),
      rule: 'FEED-ITEM-START-TIME-FORMAT',
      pointer: '/items/0/startTime',
    },
    {
      title: 'an absolute item uri',
      name: 'FitnessActivityFeed',
      body: feedWith({ ...feedItem, uri: 'https://api.example/fitnessActivities/17' }),
      rule: 'FEED-ITEM-URI-RELATIVE',
      pointer: '/items/0/uri',
    },
    {
      title: 'an item without uri',
      name: 'FitnessActivityFeed',
      body: feedWith(without(feedItem, 'uri')),
      rule: 'FEED-ITEM-FIELDS',
      pointer: '/items/0',
    },
    {
      title: 'an item with a string duration',
      name: 'FitnessActivityFeed',
      body: feedWith({ ...feedItem, duration: '1800' }),
      rule: 'FEED-ITEM-FIELDS',
      pointer: '/items/0/duration',
    },
    {
      title: 'an ISO start_time in an activity',
      name: 'FitnessActivity',
      body: { ...activity, start_time: '2011-03-01T07:00:00Z' },
      rule: 'ACTIVITY-START-TIME-FORMAT',
      pointer: '/start_time',
    },
    {
      title: "a start_time whose weekday is not the date's (1 March 2011 was a Tuesday)",
      name: 'FitnessActivity',
      body: { ...activity, start_time: 'Mon, 1 Mar 2011 07:00:00' },
      rule: 'ACTIVITY-START-TIME-FORMAT',
      pointer: '/start_time',
    },
    {
      title: 'a start_time on 29 February of a common year',
      name: 'FitnessActivity',
      body: { ...activity, start_time: 'Tue, 29 Feb 2011 07:00:00' },
      rule: 'ACTIVITY-START-TIME-FORMAT',
      pointer: '/start_time',
    },
    {
      title: 'has_map as a boolean in an activity',
      name: 'FitnessActivity',
      body: { ...activity, has_map: false },
      rule: 'ACTIVITY-HAS-MAP-TEXT',
      pointer: '/has_map',
    },
    {
      title: 'an activity uri without a leading slash',
      name: 'FitnessActivity',
      body: { ...activity, uri: 'fitnessActivities/17' },
      rule: 'ACTIVITY-URI-ON-READ',
      pointer: '/uri',
    },
    {
      title: 'an activity without type',
      name: 'FitnessActivity',
      body: without(activity, 'type'),
      rule: 'ACTIVITY-FIELDS',
      pointer: '',
    },
    {
      title: 'startTime in an activity (no irregularity there)',
      name: 'FitnessActivity',
      body: { ...without(activity, 'start_time'), startTime: 'Tue, 1 Mar 2011 07:00:00' },
      rule: 'ACTIVITY-FIELDS',
      pointer: '',
    },
    {
      title: 'an absolute comments link',
      name: 'FitnessActivity',
      body: { ...activity, comments: 'http://api.example/c' },
      rule: 'ACTIVITY-LINKS-RELATIVE',
      pointer: '/comments',
    },
    {
      title: 'a fractional path timestamp',
      name: 'FitnessActivity',
      body: { ...activity, path: [{ ...pathPoint, timestamp: 1.5 }] },
      rule: 'ACTIVITY-PATH-POINT-FIELDS',
      pointer: '/path/0/timestamp',
    },
    {
      title: 'a latitude as text',
      name: 'FitnessActivity',
      body: { ...activity, path: [{ ...pathPoint, latitude: '42.36' }] },
      rule: 'ACTIVITY-PATH-POINT-FIELDS',
      pointer: '/path/0/latitude',
    },
    {
      title: 'elite as text',
      name: 'Profile',
      body: { ...profile, elite: 'false' },
      rule: 'PROFILE-FIELDS',
      pointer: '/elite',
    },
    {
      title: 'a relative profile URL',
      name: 'Profile',
      body: { ...profile, profile: '/user/ada' },
      rule: 'PROFILE-FIELDS',
      pointer: '/profile',
    },
    {
      title: 'a picture that is not a URL',
      name: 'Profile',
      body: { ...profile, large_picture: 'large picture' },
      rule: 'PROFILE-FIELDS',
      pointer: '/large_picture',
    },
    {
      title: 'an unknown reason',
      name: 'ErrorMessage',
      body: { reason: 'revoked' },
      rule: 'ERROR-FIELDS',
      pointer: '/reason',
    },
    { title: 'no reason', name: 'ErrorMessage', body: { delete_health: false }, rule: 'ERROR-FIELDS', pointer: '' },
    {
      title: 'delete_health as other text',
      name: 'ErrorMessage',
      body: { reason: 'Revoked', delete_health: 'yes' },
      rule: 'ERROR-FIELDS',
      pointer: '/delete_health',
    },
    {
      title: 'delete_health with Insufficient permission',
      name: 'ErrorMessage',
      body: { reason: 'Insufficient permission', delete_health: 'false' },
      // §7 rule 3's "and no delete_health"; the table's "present only when reason is Revoked" says the same.
      rule: 'ERROR-403-INSUFFICIENT',
      pointer: '/delete_health',
    },
    {
      title: 'post_to_ as text',
      name: 'NewFitnessActivity',
      body: { post_to_facebook: 'yes' },
      rule: 'NEW-ACTIVITY-BODY',
      pointer: '/post_to_facebook',
    },
    {
      title: 'an ISO start_time in a create',
      name: 'NewFitnessActivity',
      body: { start_time: '2011-03-01T07:00:00Z' },
      rule: 'NEW-ACTIVITY-BODY',
      pointer: '/start_time',
    },
    {
      title: 'a path timestamp as text in a create',
      name: 'NewFitnessActivity',
      body: { path: [{ ...pathPoint, timestamp: '0' }] },
      rule: 'NEW-ACTIVITY-BODY',
      pointer: '/path/0/timestamp',
    },
    {
      title: 'a live update path that is not an array',
      name: 'LiveFitnessActivityUpdate',
      body: { path: pathPoint },
      rule: 'LIVE-UPDATE-BODY',
      pointer: '/path',
    },
    {
      title: 'notes as a number in an edit',
      name: 'FitnessActivityEdit',
      body: { notes: 3 },
      rule: 'ACTIVITY-EDIT-BODY',
      pointer: '/notes',
    },
    {
      title: 'has_map as a boolean in an edit',
      name: 'FitnessActivityEdit',
      body: { has_map: true },
      rule: 'ACTIVITY-HAS-MAP-TEXT',
      pointer: '/has_map',
    },
    {
      title: 'elite as text in a profile edit',
      name: 'ProfileEdit',
      body: { elite: 'yes' },
      rule: 'PROFILE-EDIT-BODY',
      pointer: '/elite',
    },
  ])('reports $title as an error of $rule at "$pointer"', ({ name, body, rule, pointer }) => {
    expect(ofSeverity(validateRepresentation(name, body), 'error')).toEqual([
      { severity: 'error', rule, pointer, message: expect.any(String) as unknown },
    ])
  })

  it.each([
    [
      feedWith({ ...feedItem, has_map: true }),
      '/items/0/has_map must be the text "true" or "false", found the boolean true',
    ],
    [{ ...feed, size: '40' }, '/size must be an integer, found the text "40"'],
    [feedWith({ ...feedItem, type: ['Running'] }), '/items/0/type must be a string, found an array of 1 item'],
    [
      feedWith({ ...feedItem, uri: `x${'y'.repeat(60)}` }),
      `/items/0/uri must be a relative URI starting with "/" (no scheme, no host), found the text "x${'y'.repeat(38)}…"`,
    ],
    [{ items: [] }, 'the body must have the field "size"'],
  ])('says what is wrong in plain words: %#', (body, message) => {
    expect(validateRepresentation('FitnessActivityFeed', body).map((p) => p.message)).toContain(message)
  })
})

describe('validateRepresentation: warnings for absent expected fields', () => {
  it.each<{ title: string; name: RepresentationName; body: unknown; rule: string; pointer: string; field: string }>([
    {
      title: 'a User without team',
      name: 'User',
      body: without(user, 'team'),
      rule: 'USER-FIELDS',
      pointer: '',
      field: 'team',
    },
    {
      title: 'an item without duration',
      name: 'FitnessActivityFeed',
      body: feedWith(without(feedItem, 'duration')),
      rule: 'FEED-ITEM-FIELDS',
      pointer: '/items/0',
      field: 'duration',
    },
    {
      title: 'an activity without heart_rate',
      name: 'FitnessActivity',
      body: without(activity, 'heart_rate'),
      rule: 'ACTIVITY-FIELDS',
      pointer: '',
      field: 'heart_rate',
    },
    // §2.3: uri is "present on read"; an edit's response need not carry it, so the schema only expects it.
    {
      title: 'an activity without uri',
      name: 'FitnessActivity',
      body: without(activity, 'uri'),
      rule: 'ACTIVITY-URI-ON-READ',
      pointer: '',
      field: 'uri',
    },
    {
      title: 'a path point without altitude',
      name: 'FitnessActivity',
      body: { ...activity, path: [without(pathPoint, 'altitude')] },
      rule: 'ACTIVITY-PATH-POINT-FIELDS',
      pointer: '/path/0',
      field: 'altitude',
    },
    {
      title: 'the 1501st of 2000 path points without type',
      name: 'FitnessActivity',
      body: {
        ...activity,
        path: Array.from({ length: 2000 }, (_, i) => (i === 1500 ? without(pathPoint, 'type') : pathPoint)),
      },
      rule: 'ACTIVITY-PATH-POINT-FIELDS',
      pointer: '/path/1500',
      field: 'type',
    },
    {
      title: 'a profile without gender',
      name: 'Profile',
      body: without(profile, 'gender'),
      rule: 'PROFILE-FIELDS',
      pointer: '',
      field: 'gender',
    },
  ])('warns about $title', ({ name, body, rule, pointer, field }) => {
    expect(validateRepresentation(name, body)).toEqual([
      { severity: 'warning', rule, pointer, message: expect.stringContaining(`"${field}"`) as unknown },
    ])
  })
})

describe('validateRepresentation: documented irregularities of feed items (§2.2)', () => {
  it('reports startTime as an irregularity, not an error nor an absent start_time', () => {
    const body = feedWith({ ...without(feedItem, 'start_time'), startTime: 'Tue, 1 Mar 2011 07:00:00' })
    expect(validateRepresentation('FitnessActivityFeed', body)).toEqual([
      {
        severity: 'irregularity',
        rule: 'IRREG-START-TIME-SPELLING',
        pointer: '/items/0/startTime',
        message: expect.any(String) as unknown,
      },
    ])
  })

  it('reports absent source, entry_mode and has_map once per item, naming them', () => {
    const body = feedWith(without(feedItem, 'source', 'entry_mode', 'has_map'))
    expect(validateRepresentation('FitnessActivityFeed', body)).toEqual([
      {
        severity: 'irregularity',
        rule: 'IRREG-ITEM-FIELDS-ABSENT',
        pointer: '/items/0',
        message: '/items/0 lacks the fields "source", "entry_mode" and "has_map"',
      },
    ])
  })

  it('reports an item uri of the form /activities/<id>', () => {
    const problems = validateRepresentation('FitnessActivityFeed', feedWith({ ...feedItem, uri: '/activities/17' }))
    expect(problems).toEqual([
      {
        severity: 'irregularity',
        rule: 'IRREG-ITEM-URI-FORM',
        pointer: '/items/0/uri',
        message: expect.stringContaining('"/activities/17"') as unknown,
      },
    ])
  })

  it('reports nothing irregular about a FitnessActivity that lacks source', () => {
    const problems = validateRepresentation('FitnessActivity', without(activity, 'source'))
    expect(problems.map((p) => p.severity)).toEqual(['warning'])
  })
})

describe('checkRepresentation: the rules a check judged (issue 28)', () => {
  it('names every x-rule evaluated on the body, and the irregularities once an item was examined', () => {
    const { problems, checkedRules } = checkRepresentation('FitnessActivityFeed', feed)
    expect(problems).toEqual([])
    expect([...checkedRules].sort()).toEqual(
      [
        'FEED-FIELDS',
        'FEED-ITEM-FIELDS',
        'FEED-ITEM-HAS-MAP-TEXT',
        'FEED-ITEM-START-TIME-FORMAT',
        'FEED-ITEM-URI-RELATIVE',
        'IRREG-ITEM-FIELDS-ABSENT',
        'IRREG-ITEM-URI-FORM',
        'IRREG-START-TIME-SPELLING',
      ].sort(),
    )
  })

  it('names only what it met: an empty page judges no item rule', () => {
    expect(checkRepresentation('FitnessActivityFeed', { size: 0, items: [] }).checkedRules).toEqual(['FEED-FIELDS'])
  })

  it('gives the schema check a passing assertion for every judged rule that found nothing, beside the failures', async () => {
    const at = { file: 'suites/feed/feed.yaml', line: 1, column: 1 }
    const body = feedWith({ ...feedItem, has_map: true })
    const assertions = await checkSchema(
      { representation: 'FitnessActivityFeed', rules: ['FEED-READ'], at },
      body,
      JSON.stringify(body),
      { strict: false },
    )
    expect(assertions.filter((a) => !a.ok).map((a) => a.rules)).toEqual([['FEED-ITEM-HAS-MAP-TEXT']])
    const held = assertions.filter((a) => a.ok).flatMap((a) => a.rules)
    expect(held).toContain('FEED-READ')
    expect(held).toContain('FEED-ITEM-START-TIME-FORMAT')
    expect(held).not.toContain('FEED-ITEM-HAS-MAP-TEXT')
  })
})
