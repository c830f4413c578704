// The §4 endpoint table is kept as data in src/spec/endpoints.ts; the spec's own text is the authority.
// Read from docs/spec/ here, so that a row added, dropped or changed on either side fails.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ENDPOINTS, matchEndpoint, methodsForPath, openApiPath } from '../../../src/spec/endpoints.js'

const root = join(import.meta.dirname, '../../..')
const specDir = join(root, 'docs/spec')

interface SpecRow {
  readonly row: number
  readonly method: string
  readonly path: string
  readonly requestBody: string
  readonly success: string
}

/** The rows of the table under "## 4." in whichever file of docs/spec/ holds it. */
function section4Rows(): SpecRow[] {
  const texts = readdirSync(specDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => readFileSync(join(specDir, name), 'utf8'))
  const text = texts.find((candidate) => /^## 4\. /m.test(candidate))
  if (text === undefined) throw new Error('no "## 4." section in docs/spec/')
  const section = text.slice(text.search(/^## 4\. /m)).split(/^## (?!4\.)/m)[0]!
  return section
    .split('\n')
    .map((line) => /^\|\s*(\d+)\s*\|\s*([A-Z]+)\s*\|\s*(\S+)\s*\|([^|]*)\|([^|]*)\|\s*$/.exec(line))
    .filter((match) => match !== null)
    .map(([, row, method, path, requestBody, success]) => ({
      row: Number(row),
      method: method!,
      path: path!,
      requestBody: requestBody!.trim(),
      success: success!.trim(),
    }))
}

const rows = section4Rows()
const line = (row: { row: number; method: string; path: string }) => `${row.row} ${row.method} ${row.path}`

describe('the §4 endpoint table', () => {
  it('finds the nine rows of §4 in the spec', () => {
    expect(rows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('holds every row of the spec, with its method and path, and no other', () => {
    expect(ENDPOINTS.map(line)).toEqual(rows.map(line))
  })

  it('gives each row the success statuses and the request body the spec gives it', () => {
    for (const row of rows) {
      const endpoint = ENDPOINTS.find((candidate) => candidate.row === row.row)
      expect(endpoint?.success, line(row)).toEqual([...row.success.matchAll(/\b[1-5]\d\d\b/g)].map(Number))
      expect(endpoint?.requestBody === undefined, line(row)).toBe(row.requestBody === 'none')
    }
  })

  it('names only rules of the catalogue', () => {
    const catalogue = parse(readFileSync(join(root, 'suites/rules.yaml'), 'utf8')) as { rules: { id: string }[] }
    const ids = new Set(catalogue.rules.map((rule) => rule.id))
    const named = ENDPOINTS.flatMap((endpoint) => [
      endpoint.statusRule,
      endpoint.requestBodyRule,
      endpoint.noBodyRule,
      endpoint.lastModifiedRule,
      endpoint.conditional?.notModified,
      endpoint.conditional?.modified,
    ]).filter((id) => id !== undefined)
    expect(named.filter((id) => !ids.has(id))).toEqual([])
  })
})

describe('matchEndpoint', () => {
  it.each([
    ['GET', '/user', 1],
    ['get', '/fitnessActivities', 2],
    ['GET', '/fitnessActivities/17', 3],
    ['POST', '/fitnessActivities', 4],
    ['POST', '/fitnessActivities/17', 5],
    ['PUT', '/profile', 6],
    ['PUT', '/fitnessActivities/a%2Fb', 7],
    ['DELETE', '/fitnessActivities/17', 8],
    ['HEAD', '/fitnessActivities/17', 9],
    ['GET', '/user/', undefined],
    ['GET', '/fitnessActivities/', undefined], // an empty id is no activity
    ['GET', '/fitnessActivities/17/comments', undefined],
    ['GET', '/activities/17', undefined], // the irregular feed uri of §2.2, not an endpoint
    ['PATCH', '/fitnessActivities/17', undefined],
  ])('%s %s → row %s', (method, path, row) => {
    expect(matchEndpoint(method, path)?.row).toBe(row)
  })

  it('lists the methods of a path, to explain an unknown one', () => {
    expect(methodsForPath('/fitnessActivities/17')).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'HEAD'])
    expect(methodsForPath('/teams')).toEqual([])
  })
})

describe('the views of a row', () => {
  it('writes the path as an OpenAPI template', () => {
    expect(openApiPath('/fitnessActivities/<activity_id>')).toBe('/fitnessActivities/{activity_id}')
    expect(openApiPath('/user')).toBe('/user')
  })

  it('has reads (GET, HEAD) send Accept with the representation they answer with, and writes none', () => {
    const accepts = Object.fromEntries(ENDPOINTS.map((endpoint) => [line(endpoint), endpoint.accept]))
    expect(accepts).toEqual({
      '1 GET /user': 'User',
      '2 GET /fitnessActivities': 'FitnessActivityFeed',
      '3 GET /fitnessActivities/<activity_id>': 'FitnessActivity',
      '4 POST /fitnessActivities': undefined,
      '5 POST /fitnessActivities/<activity_id>': undefined,
      '6 PUT /profile': undefined,
      '7 PUT /fitnessActivities/<activity_id>': undefined,
      '8 DELETE /fitnessActivities/<activity_id>': undefined,
      '9 HEAD /fitnessActivities/<activity_id>': 'FitnessActivity',
    })
  })
})
