import type { Diagnostic, SourceRef } from '../model/diagnostic.js'
import type {
  AuthChoice,
  Check,
  CheckCondition,
  Expectations,
  MatrixCell,
  RequestTemplate,
  Scenario,
  Step,
} from '../model/scenario.js'
import { checkExpression, checkTemplates } from '../load/check-expression.js'
import { didYouMean } from '../load/did-you-mean.js'
import type { YamlPath, YamlSource } from '../load/yaml-source.js'
import { RULE } from './rule-ids.js'
import { FEED_PATH } from './paths.js'
import { mediaTypeOfNameOrType } from './representations.js'

/*
 * The permission matrix (suites/permissions/permission-matrix.yaml): every route of §4 crossed with
 * every credential, expanded into one scenario per route and one or more steps per cell. What a cell
 * judges is named by its outcome in the table; the checks each outcome stands for are written once,
 * here, from §5 and §7 (docs/scenario-format.md § The permission matrix).
 */

type Outcome =
  | 'refused'
  | 'revoked'
  | 'revoked-delete'
  | 'insufficient'
  | 'refused-or-revoked'
  | 'refused-or-revoked-delete'
  | 'refused-or-insufficient'
type Credential = Exclude<AuthChoice, 'token'>
type RawCell = Outcome | { open: string }

interface RawRoute {
  id: string
  route: string
  target: 'account' | 'activity' | 'new-activity'
  date?: string
  dates?: Partial<Record<Credential, string>>
  request: Pick<RequestTemplate, 'method' | 'url' | 'accept' | 'contentType' | 'json'>
  data?: string[]
  cells: Partial<Record<Credential, RawCell>>
}

interface RawMatrix {
  id: string
  title: string
  tags: string[]
  credentials: { auth: Credential; label: string; rule: string }[]
  routes: RawRoute[]
}

/** §7: the ErrorMessage each 403 outcome must carry; `deleteHealth` undefined means "absent" (rule 3). */
const FORBIDDEN: Readonly<Record<string, { reason: string; deleteHealth?: boolean }>> = {
  revoked: { reason: 'Revoked', deleteHealth: false },
  'revoked-delete': { reason: 'Revoked', deleteHealth: true },
  insufficient: { reason: 'Insufficient permission' },
}

/** Rules the generated steps cite besides the credentials' own: they must exist in the catalogue. */
const FIXED_RULES = [
  'ERROR-MEDIA-TYPE',
  'ERROR-FIELDS',
  'CREATE-STATUS',
  'CREATE-RECORDS',
  'SCOPE-NO-EARLIER-THAN',
  'SCOPE-NO-LATER-THAN',
] as const

/** A start point only: a live activity begins this way (§3, §4 rule 5), so every route, the live update included, can act on it. */
const START_POINT = { timestamp: 0, latitude: 48.8584, longitude: 2.2945, altitude: 35, type: 'start' }

const ON_REJECTED =
  "The server refused the suite's own new activity (sent with the main token); its type and equipment come from the config (activityType, equipment), which may need values this server accepts."

const IS_403: CheckCondition = { path: 'status', matcher: 'equals', expected: 403 }
const IS_NOT_403: CheckCondition = { path: 'status', matcher: 'notEquals', expected: 403 }
/** A reason §7's table lists: which of the two a cell gives is the cell's rule; any other is ERROR-FIELDS' (the schema). */
const REASON_OF_TABLE: CheckCondition = {
  path: 'body.reason',
  matcher: 'oneOf',
  expected: [...new Set(Object.values(FORBIDDEN).map((forbidden) => forbidden.reason))],
}
/** The ErrorMessage media type in any letter case (media types are case-insensitive, RFC 9110 §8.3.1). */
const ERROR_MESSAGE_MEDIA_TYPE = '[Ee][Rr][Rr][Oo][Rr][Mm][Ee][Ss][Ss][Aa][Gg][Ee]'

/** A regular expression matching `text` in any letter case (media types compare case-insensitively). */
function anyCase(text: string): string {
  return [...text]
    .map((c) =>
      /[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&'),
    )
    .join('')
}

/** True for a parsed file that holds the permission matrix rather than scenarios. */
export function isPermissionMatrix(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'permissionMatrix' in data
}

/** Expands the validated matrix into scenarios, one per route; every problem found becomes a diagnostic with its line. */
export function expandPermissionMatrix(
  source: YamlSource,
  knownRules: ReadonlySet<string>,
): { scenarios: Scenario[]; diagnostics: Diagnostic[] } {
  const matrix = (source.data as { permissionMatrix: RawMatrix }).permissionMatrix
  const base: YamlPath = ['permissionMatrix']
  const diagnostics: Diagnostic[] = []
  const report = (message: string, path: YamlPath, hint?: string): void => {
    diagnostics.push({
      code: 'E_SCENARIO_SCHEMA',
      kind: 'load',
      message,
      at: source.locate(path),
      hint,
    })
  }
  matrix.credentials.forEach((credential, index) => {
    if (knownRules.has(credential.rule)) return
    const suggestion = didYouMean(credential.rule, [...knownRules])
    diagnostics.push({
      code: 'E_UNKNOWN_RULE',
      kind: 'load',
      message: `unknown rule id "${credential.rule}"`,
      at: source.locate([...base, 'credentials', index, 'rule']),
      hint: suggestion === undefined ? undefined : `did you mean "${suggestion}"?`,
    })
  })
  for (const rule of FIXED_RULES)
    if (!knownRules.has(rule)) report(`the permission matrix needs rule ${rule}, which the catalogue lacks`, base)
  const scenarios = matrix.routes.map((route, index) => {
    const expander = new RowExpander(source, matrix, route, [...base, 'routes', index], report)
    const scenario = expander.scenario()
    diagnostics.push(...expander.loadProblems())
    return scenario
  })
  return { scenarios, diagnostics }
}

class RowExpander {
  private readonly variables = new Set(['activity'])
  private readonly problems: Diagnostic[] = []

  constructor(
    private readonly source: YamlSource,
    private readonly matrix: RawMatrix,
    private readonly route: RawRoute,
    private readonly path: YamlPath,
    private readonly report: (message: string, path: YamlPath, hint?: string) => void,
  ) {}

  scenario(): Scenario {
    const { route, matrix } = this
    this.checkRoute()
    const cells: MatrixCell[] = matrix.credentials.map(({ auth }) => {
      const raw = route.cells[auth]
      return typeof raw === 'object'
        ? { route: route.route, credential: auth, open: raw.open }
        : { route: route.route, credential: auth }
    })
    const steps: Step[] = []
    if (route.target === 'activity' && isRead(route.request.method))
      steps.push(this.createActivity(undefined, route.date ?? '01-01', 0))
    matrix.credentials.forEach((credential, column) =>
      steps.push(...this.cellSteps(cells[column]!, credential, column)),
    )
    // The columns' rules first: the report files the scenario under its first rule's section (§5).
    const cited = new Set(
      steps.flatMap((step) => [
        ...step.expect.checks.flatMap((check) => check.rules),
        ...(step.expect.schema?.rules ?? []),
      ]),
    )
    const rules = [
      ...new Set([
        ...matrix.credentials.map((credential) => credential.rule).filter((rule) => cited.has(rule)),
        ...cited,
      ]),
    ]
    const usesMainToken = steps.some((step) => step.request?.auth === 'token')
    return {
      id: `${matrix.id}-${route.id}`,
      title: `${route.route} ${matrix.title}`,
      file: this.source.file,
      at: this.at(this.path),
      rules,
      tags: matrix.tags,
      // A cell's own token is not required: without it that cell alone is skipped (run-scenario.ts).
      tokens: usesMainToken ? ['token'] : [],
      writes: steps.some((step) => step.request !== undefined && !isRead(step.request.method)),
      exclusive: false,
      steps,
      cleanup: [],
      matrixRow: { route: route.route, cells },
    }
  }

  loadProblems(): Diagnostic[] {
    return this.problems
  }

  private checkRoute(): void {
    const { route, matrix, path } = this
    for (const { auth } of matrix.credentials) {
      if (route.cells[auth] === undefined)
        this.report(
          `the row ${route.route} has no cell for ${auth}`,
          [...path, 'cells'],
          'every row names an outcome, or { open: why }, for every credential of the matrix',
        )
    }
    if (route.target === 'activity' && route.date === undefined)
      this.report(
        `the row ${route.route} acts on an activity, so it needs "date" (the far-past day its activities start on)`,
        path,
      )
    if (route.target === 'new-activity') {
      for (const { auth } of matrix.credentials) {
        if (typeof route.cells[auth] === 'string' && route.dates?.[auth] === undefined)
          this.report(`the create row needs a day of its own in "dates" for ${auth}`, [...path, 'dates'])
      }
    }
    for (const [index, expression] of (route.data ?? []).entries())
      this.problems.push(...checkExpression(expression, this.at([...path, 'data', index]), this.variables))
    this.problems.push(...checkTemplates(route.request, this.at([...path, 'request']), this.variables))
  }

  /** The steps of one cell: for a write on an activity, a fresh activity first and a read-back after. */
  private cellSteps(cell: MatrixCell, credential: RawMatrix['credentials'][number], column: number): Step[] {
    const { route } = this
    const raw = route.cells[credential.auth]
    const cellPath: YamlPath = [...this.path, 'cells', credential.auth]
    if (raw === undefined) return []
    if (typeof raw === 'object')
      return [
        {
          name: `${credential.label}: open, not judged (${raw.open})`,
          at: this.at(cellPath),
          expect: { checks: [] },
          capture: {},
          cell,
        },
      ]
    const inCell = (step: Step): Step => ({ ...step, cell })
    if (route.target === 'new-activity') {
      const date = route.dates?.[credential.auth] ?? '01-01'
      return [
        this.attempt(raw, credential, cellPath, this.newActivityBody(date, credential.label)),
        ...this.feedStaysEmpty(date, credential, cellPath),
      ].map(inCell)
    }
    if (route.target === 'activity' && !isRead(route.request.method)) {
      const setup = this.createActivity(credential.label, route.date ?? '01-01', column + 1)
      return [
        setup,
        this.activityRecorded(credential.label, column + 1),
        this.attempt(raw, credential, cellPath),
        this.activityUntouched(credential, cellPath, column + 1),
      ].map(inCell)
    }
    return [this.attempt(raw, credential, cellPath)].map(inCell)
  }

  private attempt(
    outcome: Outcome,
    credential: RawMatrix['credentials'][number],
    path: YamlPath,
    json?: unknown,
  ): Step {
    const { route } = this
    const request: RequestTemplate = {
      method: route.request.method,
      url: route.request.url,
      query: {},
      headers: {},
      ...(route.request.accept ? { accept: route.request.accept } : {}),
      ...(route.request.contentType ? { contentType: route.request.contentType } : {}),
      ...(json !== undefined ? { json } : route.request.json !== undefined ? { json: route.request.json } : {}),
      auth: credential.auth,
      wire: route.request.method === 'HEAD',
    }
    return {
      name: `${credential.label}: ${route.route} ${describeOutcome(outcome, route.request.method === 'HEAD')}`,
      at: this.at(path),
      request,
      expect: this.expectations(outcome, credential.rule, this.at(path)),
      capture: {},
      creates: route.target === 'new-activity' ? 'headers.location' : undefined,
    }
  }

  /** What an outcome stands for (§5 rule 3, §7 rules 1–3 and 6); HEAD has no body, so only its status is judged. */
  private expectations(outcome: Outcome, rule: string, at: SourceRef): Expectations {
    const isHead = this.route.request.method === 'HEAD'
    const forbidden = FORBIDDEN[outcome.replace(/^refused-or-/, '')]
    const exact = forbidden !== undefined && !outcome.startsWith('refused')
    const check = (path: string, matcher: string, expected: unknown, rules: readonly string[] = [rule]): Check => ({
      path,
      matcher,
      expected,
      rules,
      at,
      severity: 'failure',
      when: exact ? undefined : [IS_403],
    })
    const status: Check = exact
      ? { path: 'status', matcher: 'equals', expected: 403, rules: [rule], at, severity: 'failure' }
      : { path: 'status', matcher: 'notStatusClass', expected: '2xx', rules: [rule], at, severity: 'failure' }
    if (isHead) return { checks: [status] }
    // "No data" is judged by what the body is: not the representation asked for (its media type), and
    // none of its identifying fields (`data`). Generic names an RFC 9457 problem document also carries
    // (`type`, `title`) say nothing: §7 rule 5 lets other error codes carry any human-readable message.
    const accept = this.route.request.accept
    const notTheRepresentation: Check[] =
      accept === undefined || exact
        ? []
        : [
            {
              path: "headers.content-type ?? ''",
              matcher: 'notMatches',
              expected: anyCase(mediaTypeOfNameOrType(accept)),
              rules: [rule],
              at,
              severity: 'failure',
            },
          ]
    const noData: Check[] = [
      ...notTheRepresentation,
      ...(this.route.data ?? []).map((path): Check => ({
        path,
        matcher: 'absent',
        expected: true,
        rules: [rule],
        at,
        severity: 'failure',
      })),
      ...(this.route.target === 'account'
        ? []
        : [
            {
              path: 'bodyText',
              matcher: 'notContains',
              expected: '${run.marker}',
              rules: [rule],
              at,
              severity: 'failure' as const,
            },
          ]),
      ...(this.route.target === 'new-activity'
        ? [
            {
              path: 'headers.location',
              matcher: 'absent',
              expected: true,
              rules: [rule],
              at,
              severity: 'failure' as const,
            },
          ]
        : []),
    ]
    // §7: "The structured error body is used only for 403 Forbidden": any other refusal must not claim that media type.
    const notErrorMessage: Check = {
      path: "headers.content-type ?? ''",
      matcher: 'notMatches',
      expected: ERROR_MESSAGE_MEDIA_TYPE,
      rules: [RULE.errorMediaType],
      at,
      severity: 'failure',
      when: [IS_NOT_403],
    }
    if (!forbidden) return { checks: [status, notErrorMessage, ...noData] }
    const errorMessage = [
      check('headers.content-type', 'mediaType', 'ErrorMessage', [RULE.errorMediaType]),
      {
        ...check('body.reason', 'equals', forbidden.reason),
        when: exact ? [REASON_OF_TABLE] : [IS_403, REASON_OF_TABLE],
      },
      forbidden.deleteHealth === undefined
        ? check('body.delete_health', 'absent', true)
        : check('body.delete_health | bool', 'equals', forbidden.deleteHealth),
    ]
    // A schema check cannot be conditional: an exact 403 is validated as an ErrorMessage, the lenient
    // cells by their fields above, and their reason by the table's list here.
    const lenientReason = check('body.reason', REASON_OF_TABLE.matcher, REASON_OF_TABLE.expected, [RULE.errorFields])
    return {
      checks: [status, ...errorMessage, ...(exact ? [] : [lenientReason, notErrorMessage]), ...noData],
      schema: exact ? { representation: 'ErrorMessage', rules: [RULE.errorFields], at } : undefined,
    }
  }

  /** An activity of the main user, marked with the run's marker, on this row's day (hour 8 + n keeps each distinct). */
  private createActivity(label: string | undefined, date: string, index: number): Step {
    const at = this.at([...this.path, 'target'])
    return {
      name:
        label === undefined
          ? `create an activity of the main user to try ${this.route.route} on`
          : `${label}: create an activity of the main user to try the write on`,
      at,
      request: {
        method: 'POST',
        url: FEED_PATH,
        query: {},
        headers: {},
        contentType: 'NewFitnessActivity',
        json: this.newActivityBody(date, label, index),
        auth: 'token',
        wire: false,
      },
      expect: {
        checks: [
          { path: 'status', matcher: 'equals', expected: 201, rules: [RULE.createStatus], at, severity: 'failure' },
        ],
      },
      capture: { activity: 'headers.location' },
      creates: 'headers.location',
      onRejected: ON_REJECTED,
    }
  }

  /**
   * Before the attempt, the main user's read finds the activity as created (§4 rule 5): "untouched"
   * below is then judged against what the server recorded, and a create that recorded something else
   * is blamed on CREATE-RECORDS alone.
   */
  private activityRecorded(label: string | undefined, index: number): Step {
    const at = this.at([...this.path, 'target'])
    const rules = ['CREATE-RECORDS']
    return {
      name: `${label === undefined ? '' : `${label}: `}the new activity is recorded as sent (read with the main token)`,
      at,
      request: {
        method: 'GET',
        url: '${activity}',
        query: {},
        headers: {},
        accept: 'FitnessActivity',
        auth: 'token',
        wire: false,
      },
      expect: {
        checks: [
          { path: 'status', matcher: 'equals', expected: 200, rules, at, severity: 'failure' },
          {
            path: 'body.notes',
            matcher: 'equals',
            expected: notesOf(this.route.route, label, index),
            rules,
            at,
            severity: 'failure',
          },
          { path: 'body.path', matcher: 'length', expected: 1, rules, at, severity: 'failure' },
        ],
      },
      capture: {},
    }
  }

  /** Every write attempt is followed by the main user's read: the activity is there, notes and path as created (§4 endpoint 3). */
  private activityUntouched(credential: RawMatrix['credentials'][number], path: YamlPath, index: number): Step {
    const at = this.at(path)
    const rules = [credential.rule]
    return {
      name: `${credential.label}: the activity is untouched (read back with the main token)`,
      at,
      request: {
        method: 'GET',
        url: '${activity}',
        query: {},
        headers: {},
        accept: 'FitnessActivity',
        auth: 'token',
        wire: false,
      },
      expect: {
        checks: [
          { path: 'status', matcher: 'equals', expected: 200, rules, at, severity: 'failure' },
          {
            path: 'body.notes',
            matcher: 'equals',
            expected: notesOf(this.route.route, credential.label, index),
            rules,
            at,
            severity: 'failure',
          },
          { path: 'body.path', matcher: 'length', expected: 1, rules, at, severity: 'failure' },
        ],
      },
      capture: {},
    }
  }

  /**
   * After a refused create: the main user's feed for the cell's own day holds nothing (a valid, empty
   * feed). "Nothing" is judged once the page is known to keep to that day (§4 rule 1; 12 hours either
   * side for the zone a server reads start times in, §2.2 carries none), so an item found is one the
   * refused create recorded, not one a broken date scope let in.
   */
  private feedStaysEmpty(date: string, credential: RawMatrix['credentials'][number], path: YamlPath): Step[] {
    const at = this.at(path)
    const day = `\${run.farYear}-${date}`
    const [month, dayOfMonth] = date.split('-').map(Number)
    const start = `\${run.farYear | date(${month}, ${dayOfMonth})`
    const check = (path: string, matcher: string, expected: unknown, rule: string): Check => ({
      path,
      matcher,
      expected,
      rules: [rule],
      at,
      severity: 'failure',
    })
    return [
      {
        name: `${credential.label}: read the main user's feed for ${date} of the far year`,
        at,
        request: {
          method: 'GET',
          url: FEED_PATH,
          query: { noEarlierThan: day, noLaterThan: day },
          headers: {},
          accept: 'FitnessActivityFeed',
          auth: 'token',
          wire: false,
        },
        // §2.2: items is an array; a page without one is FEED-FIELDS' fault alone, and what it lists is then not judged.
        expect: {
          checks: [
            check('status', 'equals', 200, credential.rule),
            check('body.items', 'type', 'array', 'FEED-FIELDS'),
          ],
        },
        capture: { onTheDay: 'body.items[*] | feedItemView' },
      },
      {
        name: `${credential.label}: every activity it lists starts on ${date}`,
        at,
        expect: {
          checks: [
            check(
              'onTheDay[*].start',
              'every',
              { notBefore: `${start} | addSeconds(-43200)}` },
              'SCOPE-NO-EARLIER-THAN',
            ),
            check('onTheDay[*].start', 'every', { before: `${start} | addSeconds(129600)}` }, 'SCOPE-NO-LATER-THAN'),
          ],
        },
        capture: {},
      },
      {
        name: `${credential.label}: the main user's feed for ${date} of the far year holds no activity`,
        at,
        expect: { checks: [check('onTheDay', 'length', 0, credential.rule)] },
        capture: {},
      },
    ]
  }

  private newActivityBody(date: string, label: string | undefined, index = 0): Record<string, unknown> {
    const [month, day] = date.split('-').map(Number)
    return {
      type: '${config.activityType}',
      equipment: '${config.equipment}',
      start_time: `\${run.farYear | date(${month}, ${day}, ${8 + index}, 0, 0) | specTime}`,
      notes: notesOf(this.route.route, label, index),
      path: [START_POINT],
    }
  }

  private at(path: YamlPath): SourceRef {
    return this.source.locate(path)
  }
}

function notesOf(route: string, label: string | undefined, index: number): string {
  return `\${run.marker} permission matrix, ${route}${label === undefined ? '' : `, ${label}`} (#${index})`
}

function isRead(method: RequestTemplate['method']): boolean {
  return method === 'GET' || method === 'HEAD'
}

function describeOutcome(outcome: Outcome, isHead: boolean): string {
  const forbidden = FORBIDDEN[outcome.replace(/^refused-or-/, '')]
  if (!forbidden) return 'is refused (not 2xx) and returns no data'
  if (isHead && outcome.startsWith('refused')) return 'is refused (not 2xx; HEAD: status only)'
  const body =
    forbidden.deleteHealth === undefined
      ? `reason ${forbidden.reason}, no delete_health`
      : `reason ${forbidden.reason}, delete_health ${String(forbidden.deleteHealth)}`
  if (isHead) return 'answers 403 (HEAD: status only)'
  return outcome.startsWith('refused')
    ? `is refused (not 2xx) with no data; a 403 is an ErrorMessage with ${body}`
    : `answers 403 ErrorMessage, ${body}`
}
