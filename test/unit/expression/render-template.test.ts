import { describe, expect, it } from 'vitest'
import { placeholdersIn, renderTemplate, UndefinedPlaceholderError } from '../../../src/expression/render-template.js'

const scope = {
  activityId: 12,
  link: '/fitnessActivities/12',
  flag: false,
  nothing: null,
  point: { latitude: 1.5 },
  run: { marker: 'fc-run-1', farYear: 1987 },
}

describe('renderTemplate', () => {
  it.each([
    { template: '${activityId}', rendered: 12 },
    { template: '${ activityId }', rendered: 12 },
    { template: '${flag}', rendered: false },
    { template: '${nothing}', rendered: null },
    { template: '${point}', rendered: { latitude: 1.5 } },
    { template: '${run.farYear | date(3, 1) | specTime}', rendered: 'Sun, 1 Mar 1987 00:00:00' },
    { template: '${link | lastSegment | number}', rendered: 12 },
  ])('keeps the type of a whole-string template: $template → $rendered', ({ template, rendered }) => {
    expect(renderTemplate(template, scope)).toEqual(rendered)
  })

  it.each([
    { template: 'id ${activityId}', rendered: 'id 12' },
    { template: '${activityId}${activityId}', rendered: '1212' },
    { template: '${link}?pageSize=${activityId}', rendered: '/fitnessActivities/12?pageSize=12' },
    { template: 'notes: ${run.marker}', rendered: 'notes: fc-run-1' },
    { template: 'is ${flag}', rendered: 'is false' },
    { template: 'at ${point}', rendered: 'at {"latitude":1.5}' },
    { template: 'no placeholder', rendered: 'no placeholder' },
    { template: 'a $ sign and {braces}', rendered: 'a $ sign and {braces}' },
  ])('stringifies placeholders inside text: $template → $rendered', ({ template, rendered }) => {
    expect(renderTemplate(template, scope)).toBe(rendered)
  })

  it.each([
    { template: '${missing}', expression: 'missing' },
    { template: 'id ${ point.longitude }', expression: 'point.longitude' },
    { template: '${activityId} and ${run.unknown}', expression: 'run.unknown' },
    { template: { json: [{ notes: '${nope | lastSegment}' }] }, expression: 'nope | lastSegment' },
  ])('throws UndefinedPlaceholderError naming "$expression"', ({ template, expression }) => {
    expect(() => renderTemplate(template, scope)).toThrow(UndefinedPlaceholderError)
    expect(() => renderTemplate(template, scope)).toThrow(`\${${expression}} is undefined`)
    try {
      renderTemplate(template, scope)
    } catch (error) {
      expect((error as UndefinedPlaceholderError).expression).toBe(expression)
    }
  })

  it('renders every string inside objects and lists and keeps other values', () => {
    const template = {
      uri: '${link}',
      id: '${activityId}',
      tags: ['${run.marker}', 3, true, null],
      nested: { post_to_twitter: false },
    }
    expect(renderTemplate(template, scope)).toEqual({
      uri: '/fitnessActivities/12',
      id: 12,
      tags: ['fc-run-1', 3, true, null],
      nested: { post_to_twitter: false },
    })
  })

  it('returns new objects and leaves the template as it was', () => {
    const template = { uri: '${link}', path: [{ timestamp: '${activityId}' }], nested: { notes: '${run.marker}' } }
    const copy = structuredClone(template)
    const rendered = renderTemplate(template, scope) as typeof template
    expect(template).toEqual(copy)
    expect(rendered).not.toBe(template)
    expect(rendered.path).not.toBe(template.path)
    expect(rendered.path[0]).not.toBe(template.path[0])
    expect(rendered.nested).not.toBe(template.nested)
  })
})

describe('placeholdersIn', () => {
  it.each([
    { value: 'plain', expressions: [] },
    { value: '${a} and ${ b | length }', expressions: ['a', ' b | length '] },
    { value: { url: '${link}', json: [{ x: '${c}' }, 5] }, expressions: ['link', 'c'] },
    { value: 42, expressions: [] },
  ])('finds $expressions in $value', ({ value, expressions }) => {
    expect(placeholdersIn(value)).toEqual(expressions)
  })
})
