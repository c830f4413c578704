import type { Diagnostic, SourceRef } from '../model/diagnostic.js'
import type {
  AuthChoice,
  Check,
  CheckCondition,
  Expectations,
  ParallelBranch,
  RequestTemplate,
  Scenario,
  Step,
  TokenRole,
} from '../model/scenario.js'
import { NEAR_MISS_TOKENS, TOKEN_ROLES } from '../model/scenario.js'
import { MATCHERS } from '../matchers/index.js'
import { mediaTypeRuleOf } from '../spec/rule-ids.js'
import { toInstant } from '../expression/to-instant.js'
import { BUILTIN_ROOTS, checkExpression, checkTemplates } from './check-expression.js'
import { didYouMean } from './did-you-mean.js'
import type { YamlPath, YamlSource } from './yaml-source.js'

/* The shapes below are what scenario.schema.json has already validated. */
type RawMatchers = Record<string, unknown>
interface RawCheck extends RawMatchers {
  path: string
  rule?: string | string[]
  warn?: boolean
  when?: RawCondition
}
interface RawCondition extends RawMatchers {
  path: string
}
interface RawExpect {
  status?: number | number[] | string | RawMatchers
  mediaType?: string | false
  schema?: string | false
  noBody?: true
  headers?: Record<string, string | boolean | RawMatchers>
  checks?: RawCheck[]
}
interface RawRequest {
  method: RequestTemplate['method']
  url: string
  query?: Record<string, string | number | boolean>
  headers?: Record<string, string | number>
  accept?: string
  contentType?: string
  json?: unknown
  body?: string
  auth?: AuthChoice
  wire?: boolean
}
interface RawStep {
  name: string
  request?: RawRequest
  wait?: number
  expect?: RawExpect
  capture?: Record<string, string>
  creates?: string
  follow?: { next: string; maxPages?: number; collect?: Record<string, string> }
  eventually?: { within?: number; every?: number }
  untilServerDateAfter?: string
  skipIf?: { checks: RawCheck[]; reason: string }
  onRejected?: string
  rule?: string | string[]
  parallel?: RawParallelStep[]
}
interface RawParallelStep extends RawStep {
  repeat?: number
}
interface RawScenario {
  id: string
  title: string
  rules: string[]
  tags?: string[]
  exclusive?: boolean
  steps: RawStep[]
  cleanup?: RawStep[]
}

const NON_MATCHER_KEYS = new Set(['path', 'rule', 'warn', 'when'])
/** What a `parallel:` group step may not carry besides its steps: each belongs on the steps inside it. */
const NOT_ON_A_GROUP = [
  'request',
  'wait',
  'expect',
  'capture',
  'creates',
  'follow',
  'eventually',
  'untilServerDateAfter',
  'skipIf',
  'onRejected',
] as const

/**
 * `accept: X` on a step whose status admits only 2xx answers means the answer is an X: its media type
 * and its schema are checked as if `mediaType: X` and `schema: X` were written (a step's own value, or
 * `false`, wins). An answer without a body (HEAD, `noBody`) has neither to check, so it implies nothing;
 * nor does a status that admits an error answer, whose representation is not the one asked for.
 */
function impliedRepresentation(step: RawStep): string | undefined {
  const accept = step.request?.accept
  if (accept === undefined || step.request?.method === 'HEAD' || step.expect?.noBody) return undefined
  return onlySuccess(step.expect?.status) ? accept : undefined
}

function onlySuccess(status: RawExpect['status']): boolean {
  const success = (code: number): boolean => code >= 200 && code < 300
  if (typeof status === 'number') return success(status)
  if (Array.isArray(status)) return status.length > 0 && status.every(success)
  return status === '2xx'
}

/** Turns one validated file into scenarios; every problem found becomes a diagnostic with its line. */
export function toScenarios(
  source: YamlSource,
  knownRules: ReadonlySet<string>,
): { scenarios: Scenario[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const raw = (source.data as { scenarios: RawScenario[] }).scenarios
  const scenarios = raw.map((scenario, index) =>
    new ScenarioBuilder(source, knownRules, diagnostics).build(scenario, ['scenarios', index]),
  )
  return { scenarios, diagnostics }
}

class ScenarioBuilder {
  private readonly variables = new Set<string>()
  private readonly roles = new Set<TokenRole>()
  private writes = false

  constructor(
    private readonly source: YamlSource,
    private readonly knownRules: ReadonlySet<string>,
    private readonly diagnostics: Diagnostic[],
  ) {}

  build(raw: RawScenario, path: YamlPath): Scenario {
    raw.rules.forEach((rule, index) => this.checkRule(rule, [...path, 'rules', index]))
    const steps = raw.steps.map((step, index) => this.step(step, [...path, 'steps', index], raw.rules))
    const cleanup = (raw.cleanup ?? []).map((step, index) => this.step(step, [...path, 'cleanup', index], raw.rules))
    return {
      id: raw.id,
      title: raw.title,
      file: this.source.file,
      at: this.at(path),
      rules: raw.rules,
      tags: raw.tags ?? [],
      tokens: TOKEN_ROLES.filter((role) => this.roles.has(role)),
      writes: this.writes,
      exclusive: raw.exclusive ?? false,
      steps,
      cleanup,
    }
  }

  private step(raw: RawStep, path: YamlPath, scenarioRules: readonly string[]): Step {
    if (raw.parallel) return this.group(raw, raw.parallel, path, scenarioRules)
    const rules = raw.rule === undefined ? scenarioRules : this.rules(raw.rule, [...path, 'rule'])
    const request = raw.request ? this.request(raw.request, [...path, 'request']) : undefined
    const expect = this.expectations(raw.expect ?? {}, [...path, 'expect'], rules, impliedRepresentation(raw))
    const wire = request !== undefined && (request.wire || request.method === 'HEAD' || raw.expect?.noBody === true)
    const responseNames = new Set([...this.variables, 'pages'])
    const skipIf = raw.skipIf && {
      reason: raw.skipIf.reason,
      checks: raw.skipIf.checks.flatMap((check, index) =>
        this.check(check, [...path, 'skipIf', 'checks', index], rules),
      ),
    }
    if (raw.creates !== undefined) this.expression(raw.creates, [...path, 'creates'], responseNames)
    if (raw.untilServerDateAfter !== undefined)
      this.clockWait(raw.untilServerDateAfter, raw.request?.method, [...path, 'untilServerDateAfter'])
    if (raw.follow) {
      this.expression(raw.follow.next, [...path, 'follow', 'next'], responseNames)
      for (const [name, expression] of Object.entries(raw.follow.collect ?? {})) {
        this.expression(expression, [...path, 'follow', 'collect', name], responseNames)
      }
    }
    for (const [name, expression] of Object.entries(raw.capture ?? {}))
      this.expression(expression, [...path, 'capture', name], responseNames)
    this.define(Object.keys(raw.capture ?? {}), [...path, 'capture'])
    this.define(Object.keys(raw.follow?.collect ?? {}), [...path, 'follow', 'collect'])
    if (raw.follow) this.variables.add('pages')
    return {
      name: raw.name,
      at: this.at(path),
      ...(request ? { request: { ...request, wire } } : {}),
      ...(raw.wait !== undefined ? { waitMs: raw.wait } : {}),
      ...(raw.follow
        ? {
            follow: { next: raw.follow.next, maxPages: raw.follow.maxPages ?? 1000, collect: raw.follow.collect ?? {} },
          }
        : {}),
      ...(raw.eventually
        ? { eventually: { withinMs: raw.eventually.within ?? 10_000, everyMs: raw.eventually.every ?? 500 } }
        : {}),
      ...(raw.untilServerDateAfter !== undefined ? { untilServerDateAfter: raw.untilServerDateAfter } : {}),
      ...(skipIf ? { skipIf } : {}),
      expect,
      capture: raw.capture ?? {},
      ...(raw.creates !== undefined ? { creates: raw.creates } : {}),
      ...(raw.onRejected !== undefined ? { onRejected: raw.onRejected } : {}),
    }
  }

  /**
   * A `parallel:` group: every branch is checked against the variables captured before the group
   * (none sees a sibling's capture, which may not exist yet when it is sent), `${index}` is defined
   * in a repeated branch, and no two branches capture into one name.
   */
  private group(
    raw: RawStep,
    branches: readonly RawParallelStep[],
    path: YamlPath,
    scenarioRules: readonly string[],
  ): Step {
    for (const key of NOT_ON_A_GROUP) {
      if (raw[key] !== undefined)
        this.report(
          'E_SCENARIO_SCHEMA',
          `a step with parallel has only name, parallel and rule, not ${key}`,
          [...path, key],
          `put ${key} on the steps inside the group`,
        )
    }
    const rules = raw.rule === undefined ? scenarioRules : this.rules(raw.rule, [...path, 'rule'])
    const before = [...this.variables]
    const capturedBy = new Map<string, number>()
    const built = branches.map((branch, index): ParallelBranch => {
      const at: YamlPath = [...path, 'parallel', index]
      this.resetVariables(before)
      if (branch.repeat !== undefined) this.variables.add('index')
      const step = this.step(branch, at, rules)
      for (const name of Object.keys(branch.capture ?? {})) {
        const other = capturedBy.get(name)
        if (other !== undefined)
          this.report(
            'E_SCENARIO_SCHEMA',
            `"${name}" is captured by two steps of one parallel group (${other + 1} and ${index + 1}): its value would depend on which answer came first`,
            [...at, 'capture', name],
            'capture into a name of its own in each step',
          )
        capturedBy.set(name, index)
      }
      return { step, ...(branch.repeat !== undefined ? { repeat: branch.repeat } : {}) }
    })
    this.resetVariables([...before, ...capturedBy.keys()])
    return { name: raw.name, at: this.at(path), expect: { checks: [] }, capture: {}, parallel: built }
  }

  private resetVariables(names: readonly string[]): void {
    this.variables.clear()
    for (const name of names) this.variables.add(name)
  }

  /** Only reads are resent until the server's clock moves on: resending a change would repeat it. */
  private clockWait(value: string, method: RequestTemplate['method'] | undefined, path: YamlPath): void {
    if (method !== 'GET' && method !== 'HEAD') {
      this.report(
        'E_SCENARIO_SCHEMA',
        `untilServerDateAfter is allowed only on a GET or HEAD step, not ${method ? `on ${method}` : 'on a step without a request'}`,
        path,
        'put it on a read before the change, e.g. an extra GET /user step',
      )
      return
    }
    if (!value.includes('${') && toInstant(value) === undefined) {
      this.report(
        'E_SCENARIO_SCHEMA',
        `untilServerDateAfter needs a date (an HTTP date, or a \${…} template such as \${changed}), not ${JSON.stringify(value)}`,
        path,
      )
      return
    }
    this.templates(value, path)
  }

  private request(raw: RawRequest, path: YamlPath): RequestTemplate {
    const auth = raw.auth ?? 'token'
    if ((TOKEN_ROLES as readonly string[]).includes(auth)) this.roles.add(auth as TokenRole)
    // A near miss is made from the main token.
    if ((NEAR_MISS_TOKENS as readonly string[]).includes(auth)) this.roles.add('token')
    if (raw.method !== 'GET' && raw.method !== 'HEAD') this.writes = true
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(raw.headers ?? {})) headers[name.toLowerCase()] = String(value)
    if (raw.json !== undefined && raw.body !== undefined)
      this.report('E_SCENARIO_SCHEMA', 'a request has either json or body, not both', [...path, 'body'])
    this.templates({ url: raw.url, query: raw.query, headers, json: raw.json, body: raw.body }, path)
    return {
      method: raw.method,
      url: raw.url,
      query: Object.fromEntries(Object.entries(raw.query ?? {}).map(([key, value]) => [key, String(value)])),
      headers,
      ...(raw.accept ? { accept: raw.accept } : {}),
      ...(raw.contentType ? { contentType: raw.contentType } : {}),
      ...(raw.json !== undefined ? { json: raw.json } : {}),
      ...(raw.body !== undefined ? { body: raw.body } : {}),
      auth,
      wire: raw.wire ?? false,
    }
  }

  /**
   * `implied`: the representation `accept:` implies, if any. An implied check is placed where its key
   * would be written, as a key a template gave is: at the nearest part of the step the file holds.
   */
  private expectations(
    raw: RawExpect,
    path: YamlPath,
    rules: readonly string[],
    implied: string | undefined,
  ): Expectations {
    const checks: Check[] = []
    const mediaType = raw.mediaType ?? implied
    const schema = raw.schema ?? implied
    if (raw.status !== undefined) checks.push(...this.statusChecks(raw.status, [...path, 'status'], rules))
    if (mediaType !== undefined && mediaType !== false) {
      const mediaRules = [mediaTypeRuleOf(mediaType)]
      checks.push(this.single('headers.content-type', 'mediaType', mediaType, [...path, 'mediaType'], mediaRules))
    }
    if (raw.noBody) checks.push(this.single('bodyBytes', 'equals', 0, [...path, 'noBody'], rules))
    for (const [name, expectation] of Object.entries(raw.headers ?? {})) {
      const target = `headers.${name.toLowerCase()}`
      const at: YamlPath = [...path, 'headers', name]
      if (typeof expectation === 'string') checks.push(this.single(target, 'equals', expectation, at, rules))
      else if (typeof expectation === 'boolean') checks.push(this.single(target, 'present', expectation, at, rules))
      else checks.push(...this.check({ ...expectation, path: target }, at, rules))
    }
    ;(raw.checks ?? []).forEach((check, index) => checks.push(...this.check(check, [...path, 'checks', index], rules)))
    return {
      // A copy of its own length: an array grown by push keeps room for 17 items, for the whole run.
      checks: checks.slice(),
      ...(schema ? { schema: { representation: schema, rules, at: this.at([...path, 'schema']) } } : {}),
    }
  }

  private statusChecks(status: NonNullable<RawExpect['status']>, path: YamlPath, rules: readonly string[]): Check[] {
    if (typeof status === 'number') return [this.single('status', 'equals', status, path, rules)]
    if (Array.isArray(status)) return [this.single('status', 'oneOf', status, path, rules)]
    if (typeof status === 'string') return [this.single('status', 'statusClass', status, path, rules)]
    return this.check({ ...status, path: 'status' }, path, rules)
  }

  /** One check entry may hold several matchers: one Check each, sharing path, rule and place. */
  private check(raw: RawCheck, path: YamlPath, rules: readonly string[]): Check[] {
    const checkRules = raw.rule === undefined ? rules : this.rules(raw.rule, [...path, 'rule'])
    this.expression(raw.path, [...path, 'path'], this.variables)
    const matcherNames = Object.keys(raw).filter((key) => !NON_MATCHER_KEYS.has(key))
    if (matcherNames.length === 0)
      this.report('E_BAD_MATCHER', `the check of "${raw.path}" names no matcher (equals, length, present, ...)`, path)
    const condition = raw.when && this.condition(raw.when, [...path, 'when'])
    const when = condition && [condition]
    return matcherNames.map((name) => {
      const check = this.single(raw.path, name, raw[name], [...path, name], checkRules)
      // Listed, not `{ ...check, … }`: in V8 a literal that starts with a spread and adds keys gets a
      // hidden class of its own, and every check is kept for the whole run (docs/benchmarks.md).
      return {
        path: check.path,
        matcher: check.matcher,
        expected: check.expected,
        rules: check.rules,
        at: check.at,
        severity: raw.warn ? 'warning' : 'failure',
        when,
      }
    })
  }

  /** A check's `when`: one path and one matcher, judged on the same response before the check is. */
  private condition(raw: RawCondition, path: YamlPath): CheckCondition | undefined {
    this.expression(raw.path, [...path, 'path'], this.variables)
    const matcherNames = Object.keys(raw).filter((key) => key !== 'path')
    if (matcherNames.length !== 1) {
      this.report('E_BAD_MATCHER', `a check's when holds a path and exactly one matcher`, path)
      return undefined
    }
    const [name] = matcherNames as [string]
    const { matcher, expected } = this.single(raw.path, name, raw[name], [...path, name], [])
    return { path: raw.path, matcher, expected }
  }

  private single(
    target: string,
    matcherName: string,
    expected: unknown,
    path: YamlPath,
    rules: readonly string[],
  ): Check {
    const at = this.at(path)
    const matcher = MATCHERS.get(matcherName)
    if (!matcher) {
      const suggestion = didYouMean(matcherName, [...MATCHERS.keys()])
      this.report(
        'E_BAD_MATCHER',
        `unknown matcher "${matcherName}"`,
        path,
        suggestion && `did you mean "${suggestion}"?`,
      )
    } else {
      const problem = matcher.checkExpected(expected)
      if (problem) this.report('E_BAD_MATCHER', `${matcherName} ${problem}`, path)
    }
    this.diagnostics.push(...checkTemplates(expected, at, this.variables))
    return { path: target, matcher: matcherName, expected, rules, at, severity: 'failure' }
  }

  private templates(value: unknown, path: YamlPath): void {
    this.diagnostics.push(...checkTemplates(value, this.at(path), this.variables))
  }

  private expression(source: string, path: YamlPath, variables: ReadonlySet<string>): void {
    this.diagnostics.push(...checkExpression(source, this.at(path), variables))
  }

  private define(names: readonly string[], path: YamlPath): void {
    for (const name of names) {
      if ((BUILTIN_ROOTS as readonly string[]).includes(name)) {
        this.report('E_SCENARIO_SCHEMA', `"${name}" is a built-in name and cannot be captured into`, [...path, name])
      }
      this.variables.add(name)
    }
  }

  private rules(raw: string | string[], path: YamlPath): string[] {
    const list = typeof raw === 'string' ? [raw] : raw
    list.forEach((rule, index) => this.checkRule(rule, typeof raw === 'string' ? path : [...path, index]))
    return list
  }

  private checkRule(rule: string, path: YamlPath): void {
    if (this.knownRules.has(rule)) return
    const suggestion = didYouMean(rule, [...this.knownRules])
    this.report(
      'E_UNKNOWN_RULE',
      `unknown rule id "${rule}" (rule ids are listed by \`fitconform rules\`)`,
      path,
      suggestion && `did you mean "${suggestion}"?`,
    )
  }

  private report(code: Diagnostic['code'], message: string, path: YamlPath, hint?: string): void {
    this.diagnostics.push({ code, kind: 'load', message, at: this.at(path), ...(hint ? { hint } : {}) })
  }

  private at(path: YamlPath): SourceRef {
    return this.source.locate(path)
  }
}
