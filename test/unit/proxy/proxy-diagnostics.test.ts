// The proxy's errors are Diagnostics with stable codes: each code is listed once, documented in
// docs/proxy.md, and said somewhere in proxy/; no hand-written `error:` line is left beside them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROXY_ERROR_CODES } from '../../../src/model/diagnostic.js'
import { packageRoot } from '../../../src/shared/package-root.js'

const root = packageRoot()

function sourcesUnder(folder: string): { file: string; text: string }[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file: join(folder, file), text: readFileSync(join(root, folder, file), 'utf8') }))
}

/** The codes in the first column of docs/proxy.md's table, in order. */
function documentedCodes(): string[] {
  const docs = readFileSync(join(root, 'docs', 'proxy.md'), 'utf8')
  return [...docs.matchAll(/^\| `(E_[A-Z_]+)` \|[^|]+\|\s*\S[^|]*\|$/gm)].map((match) => match[1]!)
}

describe('the proxy diagnostic codes', () => {
  const sources = sourcesUnder('proxy')

  it('are each listed once', () => {
    expect(PROXY_ERROR_CODES.length).toBeGreaterThan(15)
    expect(new Set(PROXY_ERROR_CODES).size).toBe(PROXY_ERROR_CODES.length)
  })

  it('are each documented once in docs/proxy.md, which documents no other', () => {
    const documented = documentedCodes()
    expect(new Set(documented).size).toBe(documented.length)
    expect([...documented].sort()).toEqual([...PROXY_ERROR_CODES].sort())
  })

  it.each(PROXY_ERROR_CODES)('%s is said somewhere in proxy/', (code) => {
    expect(sources.filter(({ text }) => text.includes(`'${code}'`)).map(({ file }) => file)).not.toEqual([])
  })

  it('leave no hand-written `error: …` line in proxy/', () => {
    const handWritten = sources.flatMap(({ file, text }) =>
      text
        .split('\n')
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => /[`'"]error: /.test(line))
        .map(({ at }) => at),
    )
    expect(handWritten).toEqual([])
  })
})
