import { describe, expect, it } from 'vitest'
import { activityUrlUnder, isProfileUrlUnder } from '../../../src/spec/paths.js'
import { activityIdsOfFeed, markerSweepReads } from '../../../src/spec/marker-sweep.js'

// What cleanup may write to on a real account: one activity or the profile, under the base URL the user gave.
describe('activityUrlUnder', () => {
  const base = new URL('https://api.example/v1/')
  it.each([
    ['https://api.example/v1/fitnessActivities/17', 'https://api.example/v1/fitnessActivities/17'],
    ['https://api.example/v1/fitnessActivities/17?x=1#top', 'https://api.example/v1/fitnessActivities/17'],
    ['https://api.example/fitnessActivities/17', undefined], // outside the path prefix
    ['https://other.example/v1/fitnessActivities/17', undefined], // another origin
    ['https://api.example/v1/fitnessActivities', undefined], // the feed, not one activity
    ['https://api.example/v1/fitnessActivities/17/comments', undefined],
    ['https://api.example/v1/activities/17', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, expected) => {
    expect(activityUrlUnder(url, base)).toBe(expected)
  })
})

describe('isProfileUrlUnder', () => {
  it.each([
    ['https://api.example/v1/profile', true],
    ['https://api.example/profile', false],
    ['https://other.example/v1/profile', false],
  ])('%s → %s', (url, expected) => {
    expect(isProfileUrlUnder(url, new URL('https://api.example/v1'))).toBe(expected)
  })
})

describe('the marker sweep', () => {
  it("reads the far year month by month, each window ending on the month's last day", () => {
    const reads = markerSweepReads(1988)
    expect(reads).toHaveLength(12)
    expect(reads[1]).toEqual({
      path: '/fitnessActivities',
      query: { noEarlierThan: '1988-02-01', noLaterThan: '1988-02-29' },
      accept: 'application/vnd.com.service.FitnessActivityFeed+json',
    })
    expect(reads[11]!.query).toEqual({ noEarlierThan: '1988-12-01', noLaterThan: '1988-12-31' })
  })

  it('takes the last segment of each item uri, skipping items without one', () => {
    expect(
      activityIdsOfFeed({ items: [{ uri: '/fitnessActivities/7' }, { uri: '/activities/8' }, {}, null, { uri: 9 }] }),
    ).toEqual(['7', '8'])
    expect(activityIdsOfFeed({ size: 0 })).toBeUndefined()
  })
})
