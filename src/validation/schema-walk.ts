// Reads our two annotation keywords by walking a schema alongside a body, the way a validator
// evaluates it: `$ref`s are followed, so a shared definition (the §2.3 path point) takes the
// `x-rule` of the place that uses it. Only the constructs our schemas use are followed.

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

/** The loaded schemas by `$id`, with `$ref` resolution. */
export class SchemaStore {
  readonly #byId = new Map<string, SchemaNode>()

  add(schema: SchemaNode): void {
    if (typeof schema.$id !== 'string') throw new Error('a schema in the store needs an $id')
    this.#byId.set(schema.$id, schema)
  }

  has(id: string): boolean {
    return this.#byId.has(id)
  }

  get(id: string): Located | undefined {
    const node = this.#byId.get(id)
    return node && { node, baseId: id }
  }

  resolve(ref: string, baseId: string): Located | undefined {
    const url = new URL(ref, baseId)
    const pointer = decodeURIComponent(url.hash.slice(1))
    url.hash = ''
    let node: unknown = this.#byId.get(url.href)
    for (const segment of pointer.split('/').slice(1).map(unescapePointer)) {
      node = isObject(node) ? node[segment] : undefined
    }
    return isObject(node) ? { node, baseId: url.href } : undefined
  }
}

/**
 * The `x-rule` nearest to `target` (the schema object that holds a failing keyword) on the way
 * from the root schema down the instance path; undefined when target is not found.
 */
export function ruleAt(store: SchemaStore, rootId: string, instancePath: string, target: object): string | undefined {
  const root = store.get(rootId)
  const segments = instancePath === '' ? [] : instancePath.split('/').slice(1).map(unescapePointer)
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

/** Every `x-expected` field absent from the body, with the rule of the object that lists it. */
export function expectedGaps(store: SchemaStore, rootId: string, body: unknown): ExpectedGap[] {
  const gaps: ExpectedGap[] = []
  const visit = (at: Located, data: unknown, pointer: string, inherited: string): void => {
    const rule = typeof at.node['x-rule'] === 'string' ? at.node['x-rule'] : inherited
    for (const inner of sameLocation(store, at, false)) visit(inner, data, pointer, rule)
    if (isObject(data) && Array.isArray(at.node['x-expected'])) {
      for (const field of at.node['x-expected'] as unknown[]) {
        if (typeof field === 'string' && !Object.hasOwn(data, field)) gaps.push({ pointer, field, rule })
      }
    }
    if (isObject(data) || Array.isArray(data)) {
      const kind = Array.isArray(data) ? 'array' : 'object'
      for (const [key, value] of Object.entries(data)) {
        for (const child of childrenAt(at, key, kind)) visit(child, value, `${pointer}/${escapePointer(key)}`, rule)
      }
    }
  }
  const root = store.get(rootId)
  if (root) visit(root, body, '', '')
  return gaps
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
      if (isObject(node)) inner.push({ node, baseId: at.baseId })
    }
  }
  return inner
}

// Subschemas that apply to the member `key` of an object or array.
function childrenAt(at: Located, key: string, kind: 'object' | 'array' | 'any'): Located[] {
  const { node, baseId } = at
  const found: SchemaNode[] = []
  if (kind !== 'object' && /^(0|[1-9]\d*)$/.test(key) && isObject(node.items)) found.push(node.items)
  if (kind === 'array') return found.map((child) => ({ node: child, baseId }))
  const properties = node.properties
  if (isObject(properties) && isObject(properties[key])) found.push(properties[key])
  const patterns = isObject(node.patternProperties) ? Object.entries(node.patternProperties) : []
  const matching = patterns.filter(([pattern]) => new RegExp(pattern, 'u').test(key))
  for (const [, schema] of matching) if (isObject(schema)) found.push(schema)
  const declared = (isObject(properties) && Object.hasOwn(properties, key)) || matching.length > 0
  if (!declared && isObject(node.additionalProperties)) found.push(node.additionalProperties)
  return found.map((child) => ({ node: child, baseId }))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}
