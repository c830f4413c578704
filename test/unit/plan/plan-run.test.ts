import { describe, expect, it } from 'vitest'
import type { Scenario, Step, TokenRole } from '../../../src/model/scenario.js'
import { declaredWaitMs, envVarOfRole, planRun, type RunFilter } from '../../../src/plan/plan-run.js'

function scenario(
  id: string,
  fields: Partial<Pick<Scenario, 'title' | 'tags' | 'tokens' | 'writes' | 'exclusive' | 'steps'>> = {},
): Scenario {
  return {
    id,
    title: fields.title ?? `title of ${id}`,
    file: `suites/${id}.yaml`,
    at: { file: `suites/${id}.yaml`, line: 2, column: 5 },
    rules: ['USER-READ'],
    tags: fields.tags ?? [],
    tokens: fields.tokens ?? ['token'],
    writes: fields.writes ?? false,
    exclusive: fields.exclusive ?? false,
    steps: fields.steps ?? [],
    cleanup: [],
  }
}

const ALL_ROLES: ReadonlySet<TokenRole> = new Set([
  'token',
  'other-token',
  'revoked-token',
  'revoked-delete-token',
  'limited-token',
])
const everything: RunFilter = { readOnly: false, availableRoles: ALL_ROLES }

const suite: readonly Scenario[] = [
  scenario('user-entry-point', { title: 'GET /user answers with a User', tags: ['user', 'read-only'] }),
  scenario('feed-walk', { title: 'Walking the feed lists every activity', tags: ['feed'], exclusive: true }),
  scenario('activity-lifecycle', {
    title: 'An activity is created, read, edited and deleted',
    tags: ['activity'],
    writes: true,
  }),
  scenario('forbidden-other-user', {
    title: "Another user's token cannot read the activity",
    tags: ['security'],
    tokens: ['token', 'other-token'],
    writes: true,
  }),
  scenario('conditional-feed', {
    title: 'A conditional feed read answers 304',
    tags: ['feed', 'conditional'],
    exclusive: true,
  }),
  scenario('revoked-token', { title: 'A revoked token is refused', tags: ['security'], tokens: ['revoked-token'] }),
  scenario('limited-delete', {
    title: 'A token without delete rights cannot delete',
    tags: ['security'],
    tokens: ['token', 'revoked-delete-token', 'limited-token'],
    writes: true,
  }),
]

const ids = (scenarios: readonly Scenario[]): string[] => scenarios.map((s) => s.id)

describe('planRun', () => {
  it.each([
    { grep: /feed/i, selected: ['feed-walk', 'conditional-feed'] },
    { grep: /^user-/, selected: ['user-entry-point'] },
    { grep: /created, read/, selected: ['activity-lifecycle'] },
    { grep: /another user/i, selected: ['forbidden-other-user'] },
    { grep: /token/, selected: ['forbidden-other-user', 'revoked-token', 'limited-delete'] },
    { grep: /nothing matches this/, selected: [] },
  ])('selects by id or title with --grep $grep', ({ grep, selected }) => {
    expect(ids(planRun(suite, { ...everything, grep }).order)).toEqual(selected)
  })

  it.each([
    { tags: ['feed'], selected: ['feed-walk', 'conditional-feed'] },
    { tags: ['user', 'activity'], selected: ['user-entry-point', 'activity-lifecycle'] },
    { tags: ['conditional'], selected: ['conditional-feed'] },
    { tags: ['no-such-tag'], selected: [] },
    { tags: [], selected: ids(suite) },
  ])('selects scenarios carrying any of the tags $tags', ({ tags, selected }) => {
    expect(ids(planRun(suite, { ...everything, tags }).order)).toEqual(selected)
  })

  it('selects on --grep and --tag together', () => {
    expect(ids(planRun(suite, { ...everything, grep: /feed/, tags: ['conditional'] }).order)).toEqual([
      'conditional-feed',
    ])
  })

  it('skips every scenario that writes under --read-only, saying so', () => {
    const plan = planRun(suite, { ...everything, readOnly: true })
    expect(plan.skipped.map(({ scenario, reason }) => [scenario.id, reason])).toEqual([
      ['activity-lifecycle', 'changes data, and --read-only is set'],
      ['forbidden-other-user', 'changes data, and --read-only is set'],
      ['limited-delete', 'changes data, and --read-only is set'],
    ])
    expect(ids([...plan.exclusive, ...plan.concurrent]).sort()).toEqual([
      'conditional-feed',
      'feed-walk',
      'revoked-token',
      'user-entry-point',
    ])
  })

  it.each([
    {
      roles: ['token'] as TokenRole[],
      skipped: [
        ['forbidden-other-user', 'needs --other-token (or FITCONFORM_OTHER_TOKEN)'],
        ['revoked-token', 'needs --revoked-token (or FITCONFORM_REVOKED_TOKEN)'],
        [
          'limited-delete',
          'needs --revoked-delete-token and --limited-token (or FITCONFORM_REVOKED_DELETE_TOKEN, FITCONFORM_LIMITED_TOKEN)',
        ],
      ],
    },
    {
      roles: ['token', 'other-token', 'revoked-delete-token'] as TokenRole[],
      skipped: [
        ['revoked-token', 'needs --revoked-token (or FITCONFORM_REVOKED_TOKEN)'],
        ['limited-delete', 'needs --limited-token (or FITCONFORM_LIMITED_TOKEN)'],
      ],
    },
    { roles: [...ALL_ROLES], skipped: [] },
  ])(
    'with the roles $roles skips scenarios needing another token, naming its flag and variable',
    ({ roles, skipped }) => {
      const plan = planRun(suite, { readOnly: false, availableRoles: new Set(roles) })
      expect(plan.skipped.map(({ scenario, reason }) => [scenario.id, reason])).toEqual(skipped)
    },
  )

  it('keeps a skipped scenario in the order, and out of both groups', () => {
    const plan = planRun(suite, { readOnly: true, availableRoles: new Set(['token']) })
    expect(ids(plan.order)).toEqual(ids(suite))
    const grouped = [...ids(plan.exclusive), ...ids(plan.concurrent)]
    for (const { scenario } of plan.skipped) expect(grouped).not.toContain(scenario.id)
    expect(grouped.length + plan.skipped.length).toBe(suite.length)
  })

  describe('waits', () => {
    const step = (fields: Partial<Pick<Step, 'waitMs' | 'untilServerDateAfter'>>): Step =>
      ({
        name: 'a step',
        at: { file: 'suites/x.yaml', line: 1, column: 1 },
        expect: { checks: [] },
        capture: {},
        ...fields,
      }) as Step
    const waiting = [
      scenario('no-wait'),
      scenario('one-clock-wait', { steps: [step({}), step({ untilServerDateAfter: '${changed}' })] }),
      scenario('also-no-wait'),
      scenario('fixed-wait', { steps: [step({ waitMs: 1100 })] }),
      scenario('two-clock-waits', {
        steps: [step({ untilServerDateAfter: '${a}' }), step({ untilServerDateAfter: '${b}' })],
      }),
      scenario('another-clock-wait', { steps: [step({ untilServerDateAfter: '${changed}' })] }),
    ]

    it('counts a fixed wait as written and a clock wait as up to a second', () => {
      expect(waiting.map(declaredWaitMs)).toEqual([0, 1000, 0, 1100, 2000, 0 + 1000])
    })

    it('starts the concurrent scenarios that wait longest first, the rest (and equal waits) in load order, and reports in load order', () => {
      const plan = planRun(waiting, everything)
      expect(ids(plan.concurrent)).toEqual([
        'two-clock-waits',
        'fixed-wait',
        'one-clock-wait',
        'another-clock-wait',
        'no-wait',
        'also-no-wait',
      ])
      expect(ids(plan.order)).toEqual(ids(waiting))
    })
  })

  it('runs exclusive scenarios apart from the concurrent ones, each group in load order when none waits', () => {
    const plan = planRun(suite, everything)
    expect(ids(plan.exclusive)).toEqual(['feed-walk', 'conditional-feed'])
    expect(ids(plan.concurrent)).toEqual([
      'user-entry-point',
      'activity-lifecycle',
      'forbidden-other-user',
      'revoked-token',
      'limited-delete',
    ])
    expect(ids(plan.order)).toEqual(ids(suite))
  })

  describe('shards', () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      scenario(`scenario-${String(i).padStart(2, '0')}`, {
        tags: i % 2 === 0 ? ['even'] : ['odd'],
        exclusive: i % 5 === 0,
      }),
    )

    it.each([1, 2, 3, 4, 7])('put every scenario in exactly one of %i shards', (total) => {
      const shards = Array.from({ length: total }, (_, i) =>
        planRun(many, { ...everything, shard: { index: i + 1, total } }),
      )
      const seen = shards.flatMap((plan) => ids(plan.order))
      expect(seen.sort()).toEqual(ids(many))
      for (const plan of shards) {
        expect(plan.order.length).toBeGreaterThanOrEqual(Math.floor(many.length / total))
        expect(plan.order.length).toBeLessThanOrEqual(Math.ceil(many.length / total))
      }
    })

    it('partition the selection, not the whole suite', () => {
      const shards = [1, 2, 3].map((index) =>
        planRun(many, { ...everything, tags: ['even'], shard: { index, total: 3 } }),
      )
      const seen = shards.flatMap((plan) => ids(plan.order))
      expect(seen.sort()).toEqual(ids(many.filter((s) => s.tags.includes('even'))))
      expect(shards.map((plan) => plan.order.length)).toEqual([4, 3, 3])
    })

    it('keep load order inside a shard', () => {
      const plan = planRun(many, { ...everything, shard: { index: 2, total: 3 } })
      expect(ids(plan.order)).toEqual([
        'scenario-01',
        'scenario-04',
        'scenario-07',
        'scenario-10',
        'scenario-13',
        'scenario-16',
        'scenario-19',
      ])
    })
  })

  it('gives scenarios skipped for the same reason one list of missing roles, and each its own where they differ', () => {
    const needsOther = (id: string): Scenario => scenario(id, { tokens: ['token', 'other-token'] })
    const plan = planRun(
      [needsOther('a'), needsOther('b'), scenario('c', { tokens: ['limited-token'] }), scenario('d', { writes: true })],
      { readOnly: true, availableRoles: new Set(['token']) },
    )
    const [a, b, c, d] = plan.skipped
    expect(plan.skipped.map(({ scenario, reason, missingRoles }) => [scenario.id, reason, missingRoles])).toEqual([
      ['a', 'needs --other-token (or FITCONFORM_OTHER_TOKEN)', ['other-token']],
      ['b', 'needs --other-token (or FITCONFORM_OTHER_TOKEN)', ['other-token']],
      ['c', 'needs --limited-token (or FITCONFORM_LIMITED_TOKEN)', ['limited-token']],
      ['d', 'changes data, and --read-only is set', undefined],
    ])
    expect(b!.missingRoles).toBe(a!.missingRoles)
    expect(c!.missingRoles).not.toBe(a!.missingRoles)
    expect(d).not.toHaveProperty('missingRoles')
  })

  it('gives the same plan for the same input', () => {
    const filter: RunFilter = {
      readOnly: true,
      availableRoles: new Set(['token']),
      tags: ['security', 'feed'],
      shard: { index: 1, total: 2 },
    }
    expect(planRun(suite, filter)).toEqual(planRun(suite, filter))
  })
})

describe('envVarOfRole', () => {
  it.each([
    ['token', 'FITCONFORM_TOKEN'],
    ['other-token', 'FITCONFORM_OTHER_TOKEN'],
    ['revoked-token', 'FITCONFORM_REVOKED_TOKEN'],
    ['revoked-delete-token', 'FITCONFORM_REVOKED_DELETE_TOKEN'],
    ['limited-token', 'FITCONFORM_LIMITED_TOKEN'],
  ] as const)('reads --%s from %s', (role, variable) => {
    expect(envVarOfRole(role)).toBe(variable)
  })
})
