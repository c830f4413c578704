// Reads our two annotation keywords by walking a schema alongside a body, the way a validator
// evaluates it: `$ref`s are followed, so a shared definition (the §2.3 path point) takes the
// `x-rule` of the place that uses it. Only the constructs our schemas use are followed.

import { pointerOf, pointerSegments } from '../shared/json-pointer.js'
import { isRecord } from '../shared/is-record.js'

export type SchemaNode = Readonly<Record<string, unknown>>

/** A subschema together with the `$id` its relative `$ref`s resolve against. */
interface Located {
  node: SchemaNode
  baseId: string
}

/** A field listed in `x-expected` that the body lacks. */
export interface ExpectedGap {
  /** JSON pointer of the object that lacks the field. */
  pointer: string
  field: string
  rule: string
}

/** The loaded schemas by `$id`, with `$ref` resolution (each `$ref` resolved once). */
export class SchemaStore {
  readonly #byId = new Map<string, SchemaNode>()
  /** `$ref` + base → target; cleared when a schema is added, since an unresolved `$ref` may then resolve. */
  readonly #resolved = new Map<string, Located | undefined>()
  /** What `expectedGaps` needs of each subschema, worked out on first use. */
  #walkPlans = new WeakMap<SchemaNode, WalkPlan>()

  add(schema: SchemaNode): void {
    if (typeof schema.$id !== 'string') throw new Error('a schema in the store needs an $id')
    this.#byId.set(schema.$id, schema)
    this.#resolved.clear()
    this.#walkPlans = new WeakMap()
  }

  has(id: string): boolean {
    return this.#byId.has(id)
  }

  get(id: string): Located | undefined {
    const node = this.#byId.get(id)
    return node && { node, baseId: id }
  }

  resolve(ref: string, baseId: string): Located | undefined {
    const key = `${baseId}\n${ref}`
    if (this.#resolved.has(key)) return this.#resolved.get(key)
    const url = new URL(ref, baseId)
    const pointer = decodeURIComponent(url.hash.slice(1))
    url.hash = ''
    let node: unknown = this.#byId.get(url.href)
    for (const segment of pointerSegments(pointer)) {
      node = isRecord(node) ? node[segment] : undefined
    }
    const found = isRecord(node) ? { node, baseId: url.href } : undefined
    this.#resolved.set(key, found)
    return found
  }

  walkPlan(at: Located): WalkPlan {
    let plan = this.#walkPlans.get(at.node)
    if (plan === undefined) {
      plan = makeWalkPlan(this, at)
      this.#walkPlans.set(at.node, plan)
    }
    return plan
  }
}

/**
 * The `x-rule` nearest to `target` (the schema object that holds a failing keyword) on the way
 * from the root schema down the instance path; undefined when target is not found.
 */
export function ruleAt(store: SchemaStore, rootId: string, instancePath: string, target: object): string | undefined {
  const root = store.get(rootId)
  const segments = pointerSegments(instancePath)
  const seen = new Map<SchemaNode, Set<number>>()
  const search = (at: Located, depth: number, inherited: string | undefined): { rule?: string } | undefined => {
    const rule = typeof at.node['x-rule'] === 'string' ? at.node['x-rule'] : inherited
    if (depth === segments.length && at.node === target) return { rule }
    // Guards against a $ref cycle: a subschema is searched once at each depth.
    const depths = seen.get(at.node) ?? new Set<number>()
    if (depths.has(depth)) return undefined
    seen.set(at.node, depths.add(depth))
    for (const inner of sameLocation(store, at, true)) {
      const found = search(inner, depth, rule)
      if (found) return found
    }
    const segment = segments[depth]
    if (segment === undefined) return undefined
    for (const child of childrenAt(at, segment, 'any')) {
      const found = search(child, depth + 1, rule)
      if (found) return found
    }
    return undefined
  }
  return root ? search(root, 0, undefined)?.rule : undefined
}

/**
 * What the gap walk needs of one subschema: its own `x-rule` and `x-expected`, the subschemas that
 * apply at the same place, and whether anything below it lists an expected field at all (a body
 * part under a schema that expects nothing is not walked: a 100 KB path is 1,000 points, not 6,000
 * values).
 */
interface WalkPlan {
  readonly rule?: string
  readonly expected: readonly string[]
  readonly inner: readonly Located[]
  readonly expectsSomething: boolean
  /** Some member's subschema expects something: the members are walked. */
  readonly membersExpectSomething: boolean
}

/** Every `x-expected` field absent from the body, with the rule of the object that lists it. */
export function expectedGaps(store: SchemaStore, rootId: string, body: unknown): ExpectedGap[] {
  const gaps: ExpectedGap[] = []
  // The pointer is built only for a gap: most of a body has none.
  const path: string[] = []
  const visit = (at: Located, data: unknown, inherited: string): void => {
    const plan = store.walkPlan(at)
    if (!plan.expectsSomething) return
    const rule = plan.rule ?? inherited
    for (const inner of plan.inner) visit(inner, data, rule)
    if (isRecord(data)) {
      for (const field of plan.expected) {
        if (!Object.hasOwn(data, field)) gaps.push({ pointer: pointerOf(path), field, rule })
      }
      if (!plan.membersExpectSomething) return
      for (const key of Object.keys(data)) {
        const children = childrenAt(at, key, 'object')
        if (children.length === 0) continue
        path.push(key)
        for (const child of children) visit(child, data[key], rule)
        path.pop()
      }
    } else if (Array.isArray(data) && plan.membersExpectSomething) {
      const items = childrenAt(at, '0', 'array')
      if (items.length === 0) return
      for (let index = 0; index < data.length; index += 1) {
        path.push(String(index))
        for (const child of items) visit(child, data[index], rule)
        path.pop()
      }
    }
  }
  const root = store.get(rootId)
  if (root) visit(root, body, '')
  return gaps
}

function makeWalkPlan(store: SchemaStore, at: Located): WalkPlan {
  const ownRule = at.node['x-rule']
  const listed = at.node['x-expected']
  return {
    rule: typeof ownRule === 'string' ? ownRule : undefined,
    expected: Array.isArray(listed) ? listed.filter((field): field is string => typeof field === 'string') : [],
    inner: sameLocation(store, at, false),
    expectsSomething: reachesExpected(store, at),
    membersExpectSomething: allChildren(at).some((child) => reachesExpected(store, child)),
  }
}

/** Whether `x-expected` is listed at or below a subschema, along the edges the gap walk follows. */
function reachesExpected(store: SchemaStore, start: Located): boolean {
  const seen = new Set<SchemaNode>()
  const pending = [start]
  for (let at = pending.pop(); at !== undefined; at = pending.pop()) {
    if (seen.has(at.node)) continue
    seen.add(at.node)
    if (Array.isArray(at.node['x-expected']) && at.node['x-expected'].length > 0) return true
    pending.push(...sameLocation(store, at, false), ...allChildren(at))
  }
  return false
}

// Subschemas that apply at the same place in the body. Conditional ones (if/then/else, anyOf,
// oneOf, not) are included only when searching, since which of them applies is not known here.
function sameLocation(store: SchemaStore, at: Located, withConditional: boolean): Located[] {
  const inner: Located[] = []
  if (typeof at.node.$ref === 'string') {
    const target = store.resolve(at.node.$ref, at.baseId)
    if (target) inner.push(target)
  }
  const keywords = withConditional ? ['allOf', 'anyOf', 'oneOf', 'then', 'else', 'not'] : ['allOf']
  for (const keyword of keywords) {
    const value = at.node[keyword]
    for (const node of Array.isArray(value) ? value : [value]) {
      if (isRecord(node)) inner.push({ node, baseId: at.baseId })
    }
  }
  return inner
}

// Subschemas that apply to the member `key` of an object or array.
function childrenAt(at: Located, key: string, kind: 'object' | 'array' | 'any'): Located[] {
  const { node, baseId } = at
  const found: SchemaNode[] = []
  if (kind !== 'object' && /^(0|[1-9]\d*)$/.test(key) && isRecord(node.items)) found.push(node.items)
  if (kind === 'array') return found.map((child) => ({ node: child, baseId }))
  const properties = node.properties
  if (isRecord(properties) && isRecord(properties[key])) found.push(properties[key])
  const patterns = isRecord(node.patternProperties) ? Object.entries(node.patternProperties) : []
  const matching = patterns.filter(([pattern]) => compiledPattern(pattern).test(key))
  for (const [, schema] of matching) if (isRecord(schema)) found.push(schema)
  const declared = (isRecord(properties) && Object.hasOwn(properties, key)) || matching.length > 0
  if (!declared && isRecord(node.additionalProperties)) found.push(node.additionalProperties)
  return found.map((child) => ({ node: child, baseId }))
}

// Every subschema that may apply to some member, whatever its key.
function allChildren(at: Located): Located[] {
  const { node, baseId } = at
  const found: unknown[] = [node.items, node.additionalProperties]
  for (const keyword of ['properties', 'patternProperties']) {
    const members = node[keyword]
    if (isRecord(members)) found.push(...Object.values(members))
  }
  return found.filter(isRecord).map((child) => ({ node: child, baseId }))
}

const patterns = new Map<string, RegExp>()

function compiledPattern(pattern: string): RegExp {
  let compiled = patterns.get(pattern)
  if (compiled === undefined) {
    compiled = new RegExp(pattern, 'u')
    patterns.set(pattern, compiled)
  }
  return compiled
}
