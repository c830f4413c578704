import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { placeholdersIn, renderTemplate } from '../../../src/expression/render-template.js'
import { literalText, literalValue } from '../../../src/shared/literal-text.js'

const scope = { run: { marker: 'fc-run-1' }, id: 12 }

describe('literal text (the escape rule of fuzz and scaffold)', () => {
  it.each([
    { text: '${', written: '$${' },
    { text: '${run.marker}', written: '$${run.marker}' },
    { text: "${'", written: "$${'" },
    { text: '$$', written: '$$$$' },
    { text: 'costs 5$', written: 'costs 5$$' },
    { text: 'no dollar', written: 'no dollar' },
  ])('writes $text as $written, which renders back to the text itself', ({ text, written }) => {
    expect(literalText(text)).toBe(written)
    expect(renderTemplate(written, scope)).toBe(text)
    expect(placeholdersIn(written)).toEqual([])
  })

  it('keeps a placeholder that follows literal text ending in `$` a placeholder', () => {
    expect(renderTemplate(`${literalText('price $')}\${id}`, scope)).toBe('price $12')
  })

  it('gives back any text, alone or between placeholders', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('$', '{', '}', '|', "'", 'a', ' ', '\n', 'é') }),
        fc.string(),
        (weird, any) => {
          expect(renderTemplate(literalText(weird), scope)).toBe(weird)
          expect(renderTemplate(`\${run.marker} ${literalText(weird)}\${id}${literalText(any)}`, scope)).toBe(
            `fc-run-1 ${weird}12${any}`,
          )
        },
      ),
      { numRuns: 500 },
    )
  })

  it('escapes every string of a JSON value but not its keys, which are never rendered', () => {
    const written = literalValue({ '${key}': ['${a}', 1, { b: 'x$' }], n: null })
    expect(written).toEqual({ '${key}': ['$${a}', 1, { b: 'x$$' }], n: null })
    expect(renderTemplate(written, scope)).toEqual({ '${key}': ['${a}', 1, { b: 'x$' }], n: null })
  })
})
