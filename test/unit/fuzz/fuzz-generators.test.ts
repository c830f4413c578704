import fc from 'fast-check'
import { describe, it } from 'vitest'
import {
  activityEditBody,
  invalidBody,
  liveUpdateBody,
  newActivityBody,
  profileEditBody,
} from '../../../src/spec/fuzz/body-arbitraries.js'
import { renderTemplate } from '../../../src/expression/render-template.js'
import { DEFAULT_CONFIG_VALUES } from '../../../src/spec/config-defaults.js'
import { validateAgainstSchemaFile } from '../../../src/validation/schema-registry.js'

// Bodies hold the scenario's templates (far year, marker, config names); they are rendered as a run would.
const scope = {
  run: { farYear: 1987, marker: 'fitconform-run-0000', id: '0000', now: Date.UTC(2026, 10, 24) },
  config: DEFAULT_CONFIG_VALUES,
}
const render = (value: unknown): unknown => renderTemplate(value, scope)
const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
const valid = (schema: string, body: unknown): boolean =>
  validateAgainstSchemaFile(`api/${schema}`, render(body)).filter((problem) => problem.severity === 'error').length ===
  0

describe('fuzz body generators', () => {
  it.each([
    ['new-fitness-activity.schema.json', newActivityBody(15)],
    ['fitness-activity-edit.schema.json', activityEditBody()],
    ['live-fitness-activity-update.schema.json', liveUpdateBody()],
    ['profile-edit.schema.json', profileEditBody()],
  ] as const)('valid bodies validate against %s', (schema, arbitrary) => {
    fc.assert(
      fc.property(arbitrary as fc.Arbitrary<unknown>, (body) => valid(schema, body)),
      { numRuns: 200, seed: 7 },
    )
  })

  it('not-json bodies do not parse, wrong-typed ones parse but break the schema', () => {
    const sample = {
      type: '${config.activityType}',
      start_time: '${run.farYear | date(9, 24, 12, 0, 0) | specTime}',
      notes: '${run.marker} x',
    }
    fc.assert(
      fc.property(invalidBody(sample, 'new-fitness-activity.schema.json', ['type', 'start_time']), (body) => {
        const text = render(body.text) as string
        if (body.kind === 'not-json') return !parses(text)
        const parsed = JSON.parse(text) as unknown
        if (body.kind === 'wrong-types' || body.kind === 'not-an-object')
          return !valid('new-fitness-activity.schema.json', parsed)
        return true
      }),
      { numRuns: 300, seed: 11 },
    )
  })

  it('writes generated names and values as literal text: the rendered body holds them as generated, `${` and all', () => {
    const sample = {
      type: '${config.activityType}',
      start_time: '${run.farYear | date(9, 24, 12, 0, 0) | specTime}',
      notes: '${run.marker} x',
    }
    const rendered = { type: 'Running', start_time: 'Thu, 24 Sep 1987 12:00:00', notes: 'fitconform-run-0000 x' }
    fc.assert(
      fc.property(invalidBody(sample, 'new-fitness-activity.schema.json', ['type', 'start_time']), (body) => {
        if (body.kind !== 'extra-fields') return true
        const parsed = JSON.parse(render(body.text) as string) as Record<string, unknown>
        const extra = Object.keys(parsed).filter((key) => !Object.hasOwn(sample, key))
        return extra.length === 1 && Object.entries(rendered).every(([key, value]) => parsed[key] === value)
      }),
      { numRuns: 1000, seed: 42 },
    )
    fc.assert(
      fc.property(newActivityBody(15), (body) =>
        String((render(body) as { notes: string }).notes).startsWith('fitconform-run-0000 '),
      ),
      { numRuns: 300, seed: 42 },
    )
  })
})
