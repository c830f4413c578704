// Where in the OpenAPI document each rule of suites/rules.yaml goes, derived from the rule's own data
// (section, quote, appliesTo) rather than from a hand-made list, so a new rule lands somewhere by itself:
//
//   §4 endpoint N / §4 rule N      → the operation(s) it names (server rules) or their request body (client rules)
//   a parameter or header it names → that parameter or response header too, on its endpoints
//   §2.N                           → the media type of the representation of §2.N (response or request body)
//   §1 (and no endpoint)           → every response media type (server), request media type or read (client)
//   §7 rule 5                      → the `default` response; the rest of §7 → the 403 response
//   §5 (and not §7)                → the bearer security scheme
import type { Rule } from '../model/scenario.js'
import type { RepresentationName } from '../spec/representations.js'
import { ENDPOINTS, ENDPOINTS_OF_SECTION_4_RULE, type Endpoint } from '../spec/endpoints.js'

/** Keys of the places a rule can be attached to; the document builder asks for each. */
export const place = {
  operation: (endpoint: number) => `operation ${endpoint}`,
  parameter: (endpoint: number, name: string) => `parameter ${endpoint} ${name}`,
  header: (endpoint: number, name: string) => `header ${endpoint} ${name}`,
  responseBody: (endpoint: number) => `response body ${endpoint}`,
  requestBody: (endpoint: number) => `request body ${endpoint}`,
  forbidden: 'forbidden',
  otherStatuses: 'default',
  security: 'security',
} as const

/** The representation each subsection of §2 describes, as a server sends it and as a client sends it. */
const REPRESENTATION_OF_SECTION_2: Readonly<
  Record<string, { server?: RepresentationName; client?: RepresentationName }>
> = {
  '2.1': { server: 'User' },
  '2.2': { server: 'FitnessActivityFeed' },
  '2.3': { server: 'FitnessActivity', client: 'FitnessActivityEdit' },
  '2.4': { client: 'NewFitnessActivity' },
  '2.5': { client: 'LiveFitnessActivityUpdate' },
  '2.6': { server: 'Profile', client: 'ProfileEdit' },
}

export type RulePlaces = ReadonlyMap<string, readonly string[]>

/** Every place of the document → the ids of the rules that govern it, in catalogue order. */
export function placeRules(rules: readonly Rule[]): RulePlaces {
  const places = new Map<string, string[]>()
  for (const rule of rules) {
    if (rule.retired) continue
    for (const key of placesOf(rule)) places.set(key, [...(places.get(key) ?? []), rule.id])
  }
  return places
}

function placesOf(rule: Rule): string[] {
  const endpoints = endpointsOf(rule.section)
  const scope = endpoints.length > 0 ? ENDPOINTS.filter((endpoint) => endpoints.includes(endpoint.row)) : ENDPOINTS
  const named = namedPlaces(rule, scope)
  const isClient = rule.appliesTo === 'client'
  const keys: string[] = [...named]
  if (endpoints.length > 0) {
    keys.push(
      ...scope.map((endpoint) =>
        isClient && endpoint.requestBody ? place.requestBody(endpoint.row) : place.operation(endpoint.row),
      ),
    )
  }
  for (const section of sectionsOf(rule.section, '2')) {
    const representation = REPRESENTATION_OF_SECTION_2[section]?.[rule.appliesTo]
    if (representation && named.length === 0) keys.push(...bodiesOf(representation, scope, isClient))
  }
  if (sectionsOf(rule.section, '1').length > 0 && endpoints.length === 0) {
    if (isClient && mentions(rule.quote, 'Accept'))
      keys.push(
        ...ENDPOINTS.filter((endpoint) => endpoint.method === 'GET').map((endpoint) => place.operation(endpoint.row)),
      )
    else
      keys.push(
        ...ENDPOINTS.flatMap((endpoint) =>
          isClient
            ? endpoint.requestBody
              ? [place.requestBody(endpoint.row)]
              : []
            : endpoint.responses.some((r) => r.body)
              ? [place.responseBody(endpoint.row)]
              : [],
        ),
      )
  }
  // A 403 rule cites §5 rule 3 as well; it governs the 403 response, not the scheme.
  if (sectionsOf(rule.section, '7').length > 0)
    keys.push(/§7 rule 5/.test(rule.section) ? place.otherStatuses : place.forbidden)
  else if (sectionsOf(rule.section, '5').length > 0) keys.push(place.security)
  return [...new Set(keys)]
}

/** "§2.3; §4 endpoint 3" → [3]; "§4 rule 3" → [2, 3] (the endpoints that rule speaks of). */
function endpointsOf(section: string): number[] {
  const numbers = new Set<number>()
  for (const match of section.matchAll(/§4 endpoints? (\d+(?:(?:, | and )\d+)*)/g))
    for (const n of match[1]!.split(/, | and /)) numbers.add(Number(n))
  for (const match of section.matchAll(/§4 rules? (\d+)(?:[–-](\d+))?/g)) {
    const from = Number(match[1])
    for (let n = from; n <= Number(match[2] ?? from); n += 1)
      for (const endpoint of ENDPOINTS_OF_SECTION_4_RULE[n] ?? []) numbers.add(endpoint)
  }
  return [...numbers].sort((a, b) => a - b)
}

/** "§2.2 irregularities; §4 rule 2" with top '2' → ['2.2']; with top '4' → ['4']. */
function sectionsOf(section: string, top: string): string[] {
  return [...section.matchAll(/§(\d+(?:\.\d+)?)/g)]
    .map((match) => match[1]!)
    .filter((found) => found === top || found.startsWith(`${top}.`))
}

/** Parameters and response headers whose name the quote uses, on the endpoints in scope. */
function namedPlaces(rule: Rule, scope: readonly Endpoint[]): string[] {
  return scope.flatMap((endpoint) => [
    ...(endpoint.parameters ?? [])
      .filter((parameter) => mentions(rule.quote, parameter.name))
      .map((parameter) => place.parameter(endpoint.row, parameter.name)),
    ...endpoint.responses
      .flatMap((response) => response.headers ?? [])
      .filter((header) => mentions(rule.quote, header.name))
      .map((header) => place.header(endpoint.row, header.name)),
  ])
}

function bodiesOf(representation: RepresentationName, scope: readonly Endpoint[], isClient: boolean): string[] {
  return scope.flatMap((endpoint) => {
    if (isClient) return endpoint.requestBody === representation ? [place.requestBody(endpoint.row)] : []
    return endpoint.responses.some((response) => response.body === representation)
      ? [place.responseBody(endpoint.row)]
      : []
  })
}

/**
 * The name as a word of its own (`noEarlierThan` is not in "modifiedNoEarlierThan"). A name that is
 * also an English word (`page`) counts only where the quote calls it a parameter or header.
 */
function mentions(quote: string, name: string): boolean {
  const isIdentifier = /[A-Z-]/.test(name)
  const after = isIdentifier ? '([^A-Za-z-]|$)' : ' (query )?(parameter|header)'
  return new RegExp(`(^|[^A-Za-z-])${name.replace(/-/g, '\\-')}${after}`).test(quote)
}
