import { describe, expect, it } from 'vitest'
import { feedRequestOf } from '../../../../proxy/analyze/feed-request.js'

const queryOf = (search: string) => [...new URLSearchParams(search)] as const

describe('what a feed read asked for (§4 rule 1)', () => {
  it('asks for the default 25 items without pageSize', () => {
    expect(feedRequestOf(queryOf(''))).toEqual({
      pageSize: { value: 25, given: false },
      isScoped: false,
      startScopes: [],
      isStartScoped: false,
      isLaterPage: false,
    })
  })

  it('takes one positive pageSize, and none from a value the spec does not describe', () => {
    expect(feedRequestOf(queryOf('pageSize=7')).pageSize).toEqual({ value: 7, given: true })
    for (const search of ['pageSize=0', 'pageSize=-1', 'pageSize=abc', 'pageSize=2&pageSize=3'])
      expect(feedRequestOf(queryOf(search)).pageSize, search).toBeUndefined()
  })

  it('names the start scopes with a date value in the spec order, and any date parameter scopes the feed', () => {
    const both = feedRequestOf(queryOf('noLaterThan=2011-03-31&noEarlierThan=2011-03-01&noLaterThan=2011-04-01'))
    expect(both.startScopes).toEqual(['noEarlierThan', 'noLaterThan'])
    expect(both.isStartScoped).toBe(true)
    const notADate = feedRequestOf(queryOf('noEarlierThan=March'))
    expect(notADate).toMatchObject({ startScopes: [], isStartScoped: false, isScoped: true })
    expect(feedRequestOf(queryOf('modifiedNoLaterThan=2011-03-31'))).toMatchObject({
      startScopes: [],
      isScoped: true,
    })
  })

  it('knows a later page by its page parameter', () => {
    expect(feedRequestOf(queryOf('page=2&pageSize=6'))).toMatchObject({
      isLaterPage: true,
      pageSize: { value: 6, given: true },
    })
  })
})
