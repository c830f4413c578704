// Rule quotes are the spec's words: each quote of suites/rules.yaml, split on "...", occurs in the spec
// in order, ignoring backticks, asterisks and runs of whitespace (the Markdown around the words). A
// rule that rests on HTTP itself says so in `http`, citing RFC 9110 with a section, and its `section`
// names that citation too, so reports show it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

interface CatalogueRule {
  id: string
  section: string
  quote: string
  http?: string
}

const root = join(import.meta.dirname, '../../..')
const rules = (parse(readFileSync(join(root, 'suites/rules.yaml'), 'utf8')) as { rules: CatalogueRule[] }).rules
const spec = readFileSync(join(root, 'docs/spec/fitness-data-service.md'), 'utf8')

const normalize = (text: string): string => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim()

/** The parts of `quote` that are not found in `text` in order (empty when the quote is verbatim). */
function partsNotFoundInOrder(quote: string, text: string): string[] {
  const haystack = normalize(text)
  const missing: string[] = []
  let from = 0
  for (const part of quote
    .split('...')
    .map(normalize)
    .filter((piece) => piece.length > 0)) {
    const at = haystack.indexOf(part, from)
    if (at < 0) missing.push(part)
    else from = at + part.length
  }
  return missing
}

describe('the quote check itself', () => {
  it.each([
    { quote: 'Paths are relative to {base_url}.', found: true },
    { quote: 'Methods used: `GET`, POST ... HEAD.', found: true },
    { quote: 'The  media\ntype is sent', found: true },
    { quote: 'HEAD ... Methods used', found: false },
    { quote: 'Paths are relative to the base URL.', found: false },
  ])('"$quote" found in order: $found', ({ quote, found }) => {
    expect(partsNotFoundInOrder(quote, spec).length === 0).toBe(found)
  })
})

describe.each(rules.map((rule) => ({ ...rule, name: rule.id })))('rule $name', (rule) => {
  it('quotes the spec verbatim', () => {
    expect(rule.quote.trim().length).toBeGreaterThan(0)
    expect(partsNotFoundInOrder(rule.quote, spec)).toEqual([])
  })

  it.runIf(rule.http !== undefined || /RFC/.test(rule.section))(
    'cites RFC 9110 with a section for its HTTP basis, in section and in http',
    () => {
      const citation = /^RFC 9110 §\d+(\.\d+)*/.exec(rule.http ?? '')?.[0]
      expect(citation, `${rule.id}: http must start with "RFC 9110 §<section>"`).toBeDefined()
      expect(rule.section).toContain(citation)
      expect(rule.http!.length).toBeGreaterThan(citation!.length + 10)
    },
  )
})
