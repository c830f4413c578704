import { describe, expect, it } from 'vitest'
import {
  credentialIdentities,
  matchRequest,
  type RecordedFacts,
  type RequestFacts,
} from '../../../../proxy/mock/mock-matching.js'

const request = (extra: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  path: '/user',
  query: '',
  mediaTypes: ['application/vnd.com.service.user+json'],
  credentialSent: true,
  conditional: new Map(),
  ...extra,
})
const recorded = (id: number, status: number, extra: Partial<RequestFacts> = {}): RecordedFacts => ({
  ...request(extra),
  id,
  status,
})

const recording = [
  recorded(1, 200, { tokenId: 'tok_a' }),
  recorded(2, 401, { credentialSent: false }),
  recorded(3, 200, { tokenId: 'tok_b' }),
  recorded(4, 304, {
    tokenId: 'tok_a',
    conditional: new Map([['if-modified-since', 'Sun, 06 Nov 1994 08:49:37 GMT']]),
  }),
  recorded(5, 304, {
    tokenId: 'tok_a',
    conditional: new Map([['if-modified-since', 'Mon, 07 Nov 1994 08:49:37 GMT']]),
  }),
]

describe('matchRequest', () => {
  it.each([
    { title: 'no credentials → the exchange recorded without', asked: request({ credentialSent: false }), answer: 2 },
    { title: 'a credential, key unknown, one recorded user → the first with one', asked: request(), answer: 1 },
    {
      title: 'a credential the mock cannot tell apart among several recorded users → miss',
      asked: request({ unidentified: true }),
      answer: 'miss',
    },
    {
      title: 'no credential, several recorded users → the exchange recorded without',
      asked: request({ credentialSent: false, unidentified: true }),
      answer: 2,
    },
    { title: 'the second token by its hash', asked: request({ tokenId: 'tok_b' }), answer: 3 },
    {
      title: 'a conditional read → a conditional exchange, equal date first',
      asked: request({
        tokenId: 'tok_a',
        conditional: new Map([['if-modified-since', 'Mon, 07 Nov 1994 08:49:37 GMT']]),
      }),
      answer: 5,
    },
    {
      title: 'a conditional read with another date → the conditional exchanges in order',
      asked: request({ conditional: new Map([['if-modified-since', 'Tue, 08 Nov 1994 08:49:37 GMT']]) }),
      answer: 4,
    },
    { title: 'an unknown token hash → miss', asked: request({ tokenId: 'tok_z' }), answer: 'miss' },
    {
      title: 'another media type → miss',
      asked: request({ mediaTypes: ['application/vnd.com.service.profile+json'] }),
      answer: 'miss',
    },
    {
      title: 'If-None-Match, never recorded → miss',
      asked: request({ conditional: new Map([['if-none-match', '"x"']]) }),
      answer: 'miss',
    },
  ])('$title', ({ asked, answer }) => {
    const outcome = matchRequest(recording, asked, new Map())
    expect(outcome.kind === 'match' ? outcome.exchange.id : 'miss').toBe(answer)
  })

  it('serves equal matches in recorded order, the last repeating', () => {
    const served = new Map<string, number>()
    const ids = [1, 2, 3, 4].map(() => {
      const outcome = matchRequest([recorded(7, 200), recorded(8, 200)], request(), served)
      return outcome.kind === 'match' ? outcome.exchange.id : 0
    })
    expect(ids).toEqual([7, 8, 8, 8])
  })

  it("counts recorded order per caller: one credential's calls never move another's along", () => {
    const served = new Map<string, number>()
    const answer = (caller: string) => {
      const outcome = matchRequest([recorded(7, 200), recorded(8, 403)], request({ caller }), served)
      return outcome.kind === 'match' ? outcome.exchange.id : 0
    }
    expect([answer('alice'), answer('revoked'), answer('alice'), answer('revoked'), answer('alice')]).toEqual([
      7, 7, 8, 8, 8,
    ])
  })

  it("names the credentials a recording tells apart, one sent without a recorded hash as ''", () => {
    expect(credentialIdentities(recording)).toEqual(['tok_a', 'tok_b'])
    expect(
      credentialIdentities([
        recorded(1, 200),
        recorded(2, 200, { tokenId: 'tok_a' }),
        recorded(3, 401, { credentialSent: false }),
      ]),
    ).toEqual(['', 'tok_a'])
  })

  it('explains a miss with the nearest recorded request and each difference', () => {
    const outcome = matchRequest(recording, request({ tokenId: 'tok_z', mediaTypes: ['text/html'] }), new Map())
    expect(outcome.kind).toBe('miss')
    if (outcome.kind !== 'miss') return
    expect(outcome.nearest).toEqual({
      id: 1,
      request: 'GET /user',
      status: 200,
      reasons: [
        'it was recorded for application/vnd.com.service.user+json, this request names text/html',
        "it was sent with credential tok_a, this request with tok_z (a credential the recording does not hold here, or another FITCONFORM_REDACT_KEY than the recording's)",
      ],
    })
    expect(outcome.explanation.split('\n')[0]).toBe('no recorded exchange of GET /user matches this request.')
  })
})
