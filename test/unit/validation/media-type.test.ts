import { describe, expect, it } from 'vitest'
import { parseMediaType, sameMediaType } from '../../../src/validation/media-type.js'

describe('parseMediaType', () => {
  it.each([
    ['application/json', { essence: 'application/json', parameters: {} }],
    ['Application/VND.com.service.User+JSON', { essence: 'application/vnd.com.service.user+json', parameters: {} }],
    ['application/json; charset=utf-8', { essence: 'application/json', parameters: { charset: 'utf-8' } }],
    ['application/json;CHARSET=UTF-8;q=1', { essence: 'application/json', parameters: { charset: 'UTF-8', q: '1' } }],
    ['text/plain; title="a; \\"b\\""', { essence: 'text/plain', parameters: { title: 'a; "b"' } }],
    ['text/plain;;charset=x', { essence: 'text/plain', parameters: { charset: 'x' } }],
    ['text/plain; a=1; a=2', { essence: 'text/plain', parameters: { a: '1' } }],
    ['  text/plain  ', { essence: 'text/plain', parameters: {} }],
  ])('reads %j', (header, expected) => {
    expect(parseMediaType(header)).toEqual(expected)
  })

  it.each(['', 'application', 'application/', '/json', 'application/json/x', 'application /json', 'a/b; charset', 'a/b; charset = utf-8', 'a/b; c="unterminated'])(
    'rejects %j',
    (header) => {
      expect(parseMediaType(header)).toBeUndefined()
    },
  )
})

describe('sameMediaType', () => {
  const user = 'application/vnd.com.service.User+json'
  it.each([
    ['application/vnd.com.service.User+json', true],
    ['application/VND.com.service.User+json; charset=utf-8', true],
    ['application/vnd.com.service.user+json', true],
    ['application/vnd.com.service.Profile+json', false],
    ['application/json', false],
    ['application/vnd.com.service.User+json, text/plain', false],
    [undefined, false],
  ])('%j names the User media type: %s', (header, expected) => {
    expect(sameMediaType(header, user)).toBe(expected)
  })
})
