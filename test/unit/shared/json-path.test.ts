import { describe, expect, it } from 'vitest'
import { ANY, parseJsonPath, pathOfPointer, valueAtPath } from '../../../src/shared/json-path.js'
import {
  escapePointerSegment,
  pointerOf,
  pointerSegments,
  unescapePointerSegment,
} from '../../../src/shared/json-pointer.js'

describe('JSON paths', () => {
  it.each([
    { path: 'name', segments: ['name'] },
    { path: '$.path[*].latitude', segments: ['path', '*', 'latitude'] },
    { path: "items[0]['uri']", segments: ['items', '0', 'uri'] },
    { path: '.items[3].has_map', segments: ['items', '3', 'has_map'] },
    { path: 'a["b.c"].*', segments: ['a', 'b.c', '*'] },
  ])('parses $path', ({ path, segments }) => {
    expect(parseJsonPath(path).map((s) => (s === ANY ? '*' : s))).toEqual(segments)
  })

  it('refuses a path with no segment', () => {
    expect(() => parseJsonPath('$.')).toThrow('not a JSON path: "$."')
  })

  it('reads a pointer the way a check target is written', () => {
    expect(pathOfPointer('/items/3/has_map')).toBe('.items[3].has_map')
    expect(pathOfPointer('/a~1b')).toBe('.a/b')
    expect(pathOfPointer('')).toBe('')
  })

  it('finds the value a path leads to, and nothing past the document', () => {
    const body = { items: [{ has_map: 'yes' }], '3': 'three' }
    expect(valueAtPath(body, parseJsonPath('items[0].has_map'))).toBe('yes')
    expect(valueAtPath(body, parseJsonPath('items[1].has_map'))).toBeUndefined()
    expect(valueAtPath(body, parseJsonPath('[3]'))).toBe('three')
    expect(valueAtPath(body, parseJsonPath('items[*].has_map'))).toBeUndefined()
    expect(valueAtPath(body, parseJsonPath('items.has_map'))).toBeUndefined()
  })
})

describe('JSON pointers', () => {
  it.each([
    { segment: 'a/b', escaped: 'a~1b' },
    { segment: 'a~b', escaped: 'a~0b' },
    { segment: '~1', escaped: '~01' },
  ])('escapes $segment as $escaped and back (RFC 6901 §4)', ({ segment, escaped }) => {
    expect(escapePointerSegment(segment)).toBe(escaped)
    expect(unescapePointerSegment(escaped)).toBe(segment)
  })

  it('splits and joins whole pointers', () => {
    expect(pointerSegments('/items/0/a~1b')).toEqual(['items', '0', 'a/b'])
    expect(pointerSegments('')).toEqual([])
    expect(pointerOf(['items', 0, 'a/b'])).toBe('/items/0/a~1b')
  })
})
