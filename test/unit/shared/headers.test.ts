import { describe, expect, it } from 'vitest'
import { headerMap, joinHeaders, rawHeaderValues } from '../../../src/shared/headers.js'

const raw = [
  'Content-Type',
  'application/json',
  'Vary',
  'Accept',
  'set-cookie',
  'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT',
  'VARY',
  'Accept-Encoding',
  'Set-Cookie',
  'b=2',
]

describe('headers', () => {
  it('finds every value of a header whatever the case of its name', () => {
    expect(rawHeaderValues(raw, 'vary')).toEqual(['Accept', 'Accept-Encoding'])
    expect(rawHeaderValues(raw, 'Location')).toEqual([])
  })

  it('groups values under lower-case names in the order sent', () => {
    expect([...headerMap(raw)]).toEqual([
      ['content-type', ['application/json']],
      ['vary', ['Accept', 'Accept-Encoding']],
      ['set-cookie', ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT', 'b=2']],
    ])
  })

  it('joins a repeated header with ", " and Set-Cookie one value a line (its values hold commas)', () => {
    expect(joinHeaders(headerMap(raw))).toEqual({
      'content-type': 'application/json',
      vary: 'Accept, Accept-Encoding',
      'set-cookie': 'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\nb=2',
    })
  })

  it("takes undici's header object (a value or a list, names in any case)", () => {
    expect(joinHeaders(Object.entries({ 'X-A': ['1', '2'], 'x-b': '3', 'x-c': undefined }))).toEqual({
      'x-a': '1, 2',
      'x-b': '3',
    })
  })
})
