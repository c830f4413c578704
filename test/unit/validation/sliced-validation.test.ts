import { describe, expect, it } from 'vitest'
import type { RepresentationName } from '../../../src/spec/representations.js'
import { collapseRepeats, RepeatTally } from '../../../src/validation/repeated-problems.js'
import {
  checkRepresentation,
  type SchemaProblem,
  validateRepresentation,
} from '../../../src/validation/schema-registry.js'
import { tallyRepresentation } from '../../../src/validation/sliced-validation.js'
import { completeBodies, feedItem, pathPoint } from './bodies.js'

const { FitnessActivityFeed: feed, FitnessActivity: activity } = completeBodies
const items = (count: number, fault: (index: number) => unknown): unknown[] =>
  Array.from({ length: count }, (_, index) => fault(index))
const whole = (name: RepresentationName, body: unknown): ReturnType<typeof collapseRepeats> =>
  collapseRepeats(validateRepresentation(name, body), body)

describe('tallyRepresentation: a body judged a slice at a time reads as the whole body judged at once', () => {
  it.each<{ title: string; name: RepresentationName; body: unknown }>([
    {
      title: 'faults before, inside and after the array, some first met in a late slice',
      name: 'FitnessActivityFeed',
      body: {
        size: -1,
        items: items(11, (index) =>
          index === 4
            ? 5
            : index === 7
              ? { uri: '/fitnessActivities/7', has_map: true }
              : index === 9
                ? { ...feedItem, start_time: undefined, startTime: 'Tue, 1 Mar 2011 07:00:00' }
                : index === 10
                  ? { uri: '/activities/10', start_time: 'yesterday' }
                  : { uri: index === 1 ? 'a/1' : `/fitnessActivities/${index}` },
        ),
        previous: 'not a url',
      },
    },
    { title: 'a page of valid items', name: 'FitnessActivityFeed', body: { ...feed, items: items(9, () => feedItem) } },
    {
      title: 'a fault only in the last item',
      name: 'FitnessActivityFeed',
      body: { ...feed, items: items(9, (index) => (index === 8 ? { ...feedItem, duration: 'long' } : feedItem)) },
    },
    {
      title: 'a representation whose schema is not sliced (allOf at its root)',
      name: 'FitnessActivity',
      body: { ...activity, path: items(9, (index) => ({ ...pathPoint, timestamp: index === 3 ? 'x' : index })) },
    },
  ])('$title', async ({ name, body }) => {
    const sliced = await tallyRepresentation(name, JSON.parse(JSON.stringify(body)) as unknown, { sliceItems: 2 })
    expect(sliced.repeated).toEqual(whole(name, JSON.parse(JSON.stringify(body)) as unknown))
    // The rules judged, for rule coverage (issue 28), are the whole body's too.
    expect([...sliced.checkedRules].sort()).toEqual([...checkRepresentation(name, body).checkedRules].sort())
    expect(sliced.stopped).toBeUndefined()
  })

  it('tells a problem on one item of a later slice at its place in the whole array', async () => {
    const body = { ...feed, items: items(9, (index) => (index === 7 ? { ...feedItem, has_map: 1 } : feedItem)) }
    const { repeated } = await tallyRepresentation('FitnessActivityFeed', body, { sliceItems: 2 })
    expect(repeated.map(({ problem, count }) => [problem.pointer, problem.message, count])).toEqual([
      ['/items/7/has_map', '/items/7/has_map must be the text "true" or "false", found the number 1', 1],
    ])
  })

  it('stops between two slices when the signal is aborted, and says how far it got', async () => {
    const controller = new AbortController()
    controller.abort()
    const body = { ...feed, items: items(9, () => ({ uri: 'a/1' })) }
    const { repeated, stopped } = await tallyRepresentation('FitnessActivityFeed', body, {
      sliceItems: 2,
      signal: controller.signal,
    })
    expect(stopped).toEqual({ pointer: '/items', judged: 2, of: 9 })
    expect(repeated.find((r) => r.problem.rule === 'FEED-ITEM-URI-RELATIVE')).toMatchObject({ count: 2, of: 9 })
  })
})

describe('RepeatTally.addItem: groups as collapseRepeats does, whatever the shape of the message', () => {
  const problem = (pointer: string, message: string, rule = 'R'): SchemaProblem => ({
    severity: 'error',
    rule,
    pointer,
    message,
  })
  const problems: SchemaProblem[] = [
    problem('/items/0/a', '/items/0/a must be x, found 1'),
    problem('/items/1/a', '/items/1/a must be x, found 2'),
    problem('/items/2/a', '/items/2/a must be y, found 2'),
    problem('/items/3/a', '/items/3/a must be x'),
    problem('/items/4/a', '/items/4/a must be x, found "/items/4/a"'),
    problem('/items/5/tags/0', '/items/5/tags/0 must be x, found 1'),
    problem('/items/6/tags/1', '/items/6/tags/1 must be x, found 1'),
    problem('/items/7/a', '/items/7/a must be x, found 3', 'S'),
    problem('/items/8/a,b', '/items/8/a,b must be x, found 3'),
    problem('/items/9/a,b', '/items/9/a,b must be x, found 4'),
    problem('/items/10', 'item /items/10 must be x'),
    problem('/items/11/a', '/items/11/a must be x, found 9'),
  ]

  it('counts the same groups with the same examples', () => {
    const tally = new RepeatTally()
    for (const found of problems)
      tally.addItem(
        found,
        found.pointer.indexOf('/', 7) === -1 ? found.pointer.length : found.pointer.indexOf('/', 7),
        (first) => first,
      )
    const body = { items: problems.map(() => ({})) }
    expect(tally.collapsed(body)).toEqual(collapseRepeats(problems, body))
  })
})
