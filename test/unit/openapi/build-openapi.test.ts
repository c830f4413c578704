import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiCommand } from '../../../src/cli/openapi-command.js'
import type { Rule } from '../../../src/model/scenario.js'
import { loadRules } from '../../../src/load/load-rules.js'
import { buildOpenApi, type OpenApiDocument } from '../../../src/openapi/build-openapi.js'
import { packageRoot } from '../../../src/shared/package-root.js'
import { validateRepresentation } from '../../../src/validation/schema-registry.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let rules: Rule[]
let document: Json

beforeAll(async () => {
  rules = (await loadRules()).rules
  document = buildOpenApi({ rules, schemasDir: join(packageRoot(), 'schemas'), version: '9.9.9' }) as Json
})

function collect(value: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) collect(item, key, found)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) found.push(v)
      else collect(v, key, found)
    }
  }
  return found
}

function resolvePointer(root: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Json)[part] : undefined), root)
}

describe('the OpenAPI document', () => {
  it('passes the OpenAPI 3.1 schema validator, which rejects a copy without info', async () => {
    const validator = new Validator()
    expect(await validator.validate(structuredClone(document) as OpenApiDocument)).toEqual({ valid: true })
    expect(validator.version).toBe('3.1')
    const { info: _info, ...broken } = structuredClone(document)
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('resolves every $ref inside the document', () => {
    const refs = collect(document, '$ref') as string[]
    expect(refs.length).toBeGreaterThan(30)
    for (const ref of refs) expect(resolvePointer(document, ref), ref).toBeDefined()
  })

  it.each([
    ['get', '/user', undefined, '200', 'application/vnd.com.service.User+json'],
    ['get', '/fitnessActivities', undefined, '200', 'application/vnd.com.service.FitnessActivityFeed+json'],
    ['get', '/fitnessActivities/{activity_id}', undefined, '200', 'application/vnd.com.service.FitnessActivity+json'],
    ['post', '/fitnessActivities', 'application/vnd.com.service.NewFitnessActivity+json', '201', undefined],
    [
      'post',
      '/fitnessActivities/{activity_id}',
      'application/vnd.com.service.LiveFitnessActivityUpdate+json',
      '204',
      undefined,
    ],
    ['put', '/profile', 'application/vnd.com.service.Profile+json', '200', 'application/vnd.com.service.Profile+json'],
    [
      'put',
      '/fitnessActivities/{activity_id}',
      'application/vnd.com.service.FitnessActivity+json',
      '200',
      'application/vnd.com.service.FitnessActivity+json',
    ],
    ['delete', '/fitnessActivities/{activity_id}', undefined, '204', undefined],
    ['head', '/fitnessActivities/{activity_id}', undefined, '200', 'application/vnd.com.service.FitnessActivity+json'],
  ])('%s %s sends %s and answers %s with %s (§4)', (method, path, requestType, status, responseType) => {
    const operation = document.paths[path][method]
    expect(operation).toBeDefined()
    expect(operation.requestBody ? Object.keys(operation.requestBody.content) : []).toEqual(
      requestType ? [requestType] : [],
    )
    expect(Object.keys(operation.responses[status].content ?? {})).toEqual(responseType ? [responseType] : [])
  })

  it('names only the statuses the spec names; any other is an open default without a schema', () => {
    const statuses = Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => method !== 'parameters')
        .map(([method, operation]) => `${method} ${path}: ${Object.keys((operation as Json).responses).join(' ')}`),
    )
    expect(statuses).toEqual([
      'get /user: 200 403 default',
      'get /fitnessActivities: 200 304 403 default',
      'post /fitnessActivities: 201 403 default',
      'get /fitnessActivities/{activity_id}: 200 304 403 default',
      'post /fitnessActivities/{activity_id}: 204 403 default',
      'put /fitnessActivities/{activity_id}: 200 403 default',
      'delete /fitnessActivities/{activity_id}: 204 403 default',
      'head /fitnessActivities/{activity_id}: 200 403 default',
      'put /profile: 200 403 default',
    ])
    expect(document.components.responses.OtherStatus.content).toBeUndefined()
  })

  it('gives the 403 the ErrorMessage media type and the three bodies of §7 rules 1–3, each valid against its schema', () => {
    const forbidden = document.components.responses.Forbidden
    const media = forbidden.content['application/vnd.com.service.ErrorMessage+json']
    expect(media.schema).toEqual({ $ref: '#/components/schemas/ErrorMessage' })
    const examples = Object.values(media.examples as Json).map((example) => ({
      value: example.value,
      rules: example['x-rule'],
    }))
    expect(examples).toEqual([
      { value: { reason: 'Revoked', delete_health: false }, rules: ['ERROR-403-REVOKED'] },
      { value: { reason: 'Revoked', delete_health: true }, rules: ['ERROR-403-REVOKED-DELETE'] },
      { value: { reason: 'Insufficient permission' }, rules: ['ERROR-403-INSUFFICIENT'] },
    ])
    for (const { value } of examples) expect(validateRepresentation('ErrorMessage', value)).toEqual([])
    expect(
      validateRepresentation('ErrorMessage', { reason: 'Insufficient permission', delete_health: false }),
    ).not.toEqual([])
  })

  it('declares the feed parameters with their types and formats, and bearer security for every operation', () => {
    const parameters = Object.fromEntries(
      (document.paths['/fitnessActivities'].get.parameters as Json[]).map((p) => [p.name, { in: p.in, ...p.schema }]),
    )
    expect(parameters).toMatchObject({
      pageSize: { in: 'query', type: 'integer', default: 25 },
      noEarlierThan: { in: 'query', type: 'string', format: 'date' },
      noLaterThan: { in: 'query', type: 'string', format: 'date' },
      modifiedNoEarlierThan: { in: 'query', type: 'string', format: 'date' },
      modifiedNoLaterThan: { in: 'query', type: 'string', format: 'date' },
      'If-Modified-Since': { in: 'header', type: 'string' },
    })
    expect(document.security).toEqual([{ bearer: [] }])
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('places every rule of the catalogue on what it governs', () => {
    const placed = new Set((collect(document, 'x-rule') as (string | string[])[]).flat())
    const missing = rules.filter((rule) => !rule.retired && !placed.has(rule.id)).map((rule) => rule.id)
    expect(missing).toEqual([])
    const at = (path: string, method: string): string[] => document.paths[path][method]['x-rule'] ?? []
    expect(at('/fitnessActivities', 'post')).toContain('CREATE-STATUS')
    expect(document.paths['/fitnessActivities'].post.responses['201'].headers.Location['x-rule']).toContain(
      'CREATE-LOCATION',
    )
    expect(document.paths['/fitnessActivities'].get.parameters[0]['x-rule']).toEqual(
      expect.arrayContaining(['FEED-DEFAULT-PAGE-SIZE', 'FEED-PAGE-SIZE']),
    )
    expect(document.components.securitySchemes.bearer['x-rule']).toEqual([
      'AUTH-BEARER-SENT',
      'AUTH-REQUIRED',
      'AUTH-USER-ISOLATION',
    ])
  })
})

describe('fitconform openapi', () => {
  let dir: string
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'fitconform-openapi-'))))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  function screen() {
    const out: string[] = []
    const err: string[] = []
    return {
      out,
      err,
      screen: {
        out: (t: string) => out.push(t),
        err: (t: string) => err.push(t),
        colors: false,
        isTTY: false,
        width: 100,
      },
    }
  }

  it.each([[undefined], ['-']])('prints the JSON document on stdout with -o %s', async (output) => {
    const { out, screen: s } = screen()
    expect(await openApiCommand(output === undefined ? {} : { output }, s)).toBe(0)
    const printed = JSON.parse(out.join(''))
    expect(printed.openapi).toBe('3.1.0')
    expect(Object.keys(printed.paths)).toEqual(Object.keys(document.paths))
  })

  it('writes YAML to a .yaml file and JSON to any other', async () => {
    const { screen: s } = screen()
    expect(await openApiCommand({ output: join(dir, 'api', 'openapi.yaml') }, s)).toBe(0)
    expect(await openApiCommand({ output: join(dir, 'openapi.json') }, s)).toBe(0)
    const yaml = parse(readFileSync(join(dir, 'api', 'openapi.yaml'), 'utf8'))
    const json = JSON.parse(readFileSync(join(dir, 'openapi.json'), 'utf8'))
    expect(yaml).toEqual(json)
    expect(json.paths).toEqual(document.paths)
  })

  it('exits 2 naming the file when it cannot be written', async () => {
    const { err, screen: s } = screen()
    expect(await openApiCommand({ output: join(dir, 'openapi.json', 'inside-a-file.json') }, s)).toBe(2)
    expect(err.join('')).toContain('cannot write')
  })
})
