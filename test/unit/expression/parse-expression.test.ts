import { describe, expect, it } from 'vitest'
import { ExpressionSyntaxError, parseExpression } from '../../../src/expression/parse-expression.js'

function syntaxErrorOf(source: string): ExpressionSyntaxError {
  try {
    parseExpression(source)
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return error
    throw error
  }
  throw new Error(`"${source}" parsed without an error`)
}

describe('parseExpression', () => {
  it.each([
    { source: '', offset: 0, message: 'expected a variable, a number or a quoted text' },
    { source: 'body.', offset: 5, message: 'expected a name after "."' },
    { source: 'body.items[x]', offset: 11, message: 'expected an index or * inside [ ]' },
    { source: 'body.items[1', offset: 12, message: 'expected "]"' },
    { source: 'body |', offset: 6, message: 'expected a function name after "|"' },
    { source: 'body | 7', offset: 7, message: 'expected a function name after "|"' },
    { source: "'unterminated", offset: 0, message: 'unterminated quoted text' },
    { source: 'run.farYear | date(3 1)', offset: 21, message: 'expected "," or ")" in the argument list' },
    { source: 'run.farYear | date(3, +)', offset: 22, message: 'expected an argument' },
    { source: 'body other', offset: 5, message: 'unexpected "other"' },
    { source: 'a ?? ', offset: 5, message: 'expected a variable, a number or a quoted text' },
  ])('reports "$message" at offset $offset of "$source"', ({ source, offset, message }) => {
    const error = syntaxErrorOf(source)
    expect(error.message).toBe(message)
    expect(error.offset).toBe(offset)
  })

  it.each([
    {
      source: 'headers.last-modified ?? headers.date',
      parsed: [
        { primary: { kind: 'path', root: 'headers', segments: [{ kind: 'key', name: 'last-modified' }] }, calls: [] },
        { primary: { kind: 'path', root: 'headers', segments: [{ kind: 'key', name: 'date' }] }, calls: [] },
      ],
    },
    {
      source: 'body.items[*].uri | lastSegment',
      parsed: [
        {
          primary: {
            kind: 'path',
            root: 'body',
            segments: [{ kind: 'key', name: 'items' }, { kind: 'all' }, { kind: 'key', name: 'uri' }],
          },
          calls: [{ name: 'lastSegment', args: [] }],
        },
      ],
    },
    {
      source: 'body.path[0].latitude',
      parsed: [
        {
          primary: {
            kind: 'path',
            root: 'body',
            segments: [
              { kind: 'key', name: 'path' },
              { kind: 'index', index: 0 },
              { kind: 'key', name: 'latitude' },
            ],
          },
          calls: [],
        },
      ],
    },
    {
      source: "'2011-03-01' | time",
      parsed: [{ primary: { kind: 'literal', value: '2011-03-01' }, calls: [{ name: 'time', args: [] }] }],
    },
    {
      source: ' run.farYear|date( 3 ,1 )|specTime ',
      parsed: [
        {
          primary: { kind: 'path', root: 'run', segments: [{ kind: 'key', name: 'farYear' }] },
          calls: [
            { name: 'date', args: [3, 1] },
            { name: 'specTime', args: [] },
          ],
        },
      ],
    },
    {
      source: 'body | omit(uri, "user id", \'x\') ?? -1.5',
      parsed: [
        {
          primary: { kind: 'path', root: 'body', segments: [] },
          calls: [{ name: 'omit', args: ['uri', 'user id', 'x'] }],
        },
        { primary: { kind: 'literal', value: -1.5 }, calls: [] },
      ],
    },
  ])('reads "$source"', ({ source, parsed }) => {
    expect(parseExpression(source)).toEqual(parsed)
  })
})
