import type { DiffResult } from '../diff-result.js'
import { formatValue } from '../../shared/format-value.js'
import { createStyler } from '../../report/text/text-style.js'
import { compareSections, conformanceGroups, extensionGroups, sideCountsLine } from './diff-groups.js'

/** Conformance examples printed per rule before "and N more". */
const EXAMPLES_SHOWN = 3

/**
 * The console text of a diff: conformance differences by spec section, each open choice once with
 * the spec's sentence and one example, each extension once, the volatile values, a closing count.
 */
export function renderDiffConsole(result: DiffResult, options: { colors: boolean }): string {
  const style = createStyler(options.colors)
  const lines: string[] = []
  const { new: sideNew, reference } = result.sides
  lines.push(style.bold(`fitconform diff: new ${sideNew.label} against reference ${reference.label}`))
  if (result.mode === 'servers')
    lines.push(
      `  runs: new ${sideNew.passed} passed, ${sideNew.failed} failed; reference ${reference.passed} passed, ${reference.failed} failed`,
    )
  const groups = conformanceGroups(result)
  lines.push('', style.bold(`Conformance differences: a rule holds on one side only (${groups.length})`))
  for (const group of groups) {
    const verdicts = group.verdicts ? `  new: ${group.verdicts.new}, reference: ${group.verdicts.reference}` : ''
    lines.push(`  ${style.red(group.rule)}  ${group.section}${verdicts}`)
    if (group.quote) lines.push(style.gray(`    "${group.quote}"`))
    for (const example of group.examples.slice(0, EXAMPLES_SHOWN)) {
      lines.push(`    ${example.scenario} step ${example.step}  ${example.request}`)
      lines.push(
        `      ${example.difference.path}: new ${show(example.difference.new)}, reference ${show(example.difference.reference)}`,
      )
      if (example.difference.note) lines.push(style.gray(`      ${example.difference.note}`))
    }
    if (group.examples.length > EXAMPLES_SHOWN)
      lines.push(style.gray(`    and ${group.examples.length - EXAMPLES_SHOWN} more step(s)`))
  }
  const choices = [...result.openChoices].sort((a, b) => compareSections(a.section, b.section))
  lines.push('', style.bold(`Open choices: both may conform, the spec leaves it open (${choices.length})`))
  for (const choice of choices) {
    lines.push(
      `  ${style.yellow(choice.kind)}  ${choice.section || '(no spec sentence: look at it)'}  ${choice.about}${choice.steps > 0 ? ` (${choice.steps} step${choice.steps === 1 ? '' : 's'})` : ''}`,
    )
    if (choice.quote) lines.push(style.gray(`    "${choice.quote}"`))
    const at = choice.example.step > 0 ? `${choice.example.scenario} step ${choice.example.step}, ` : ''
    lines.push(
      `    e.g. ${at}${choice.example.path}: new ${show(choice.example.new)}, reference ${show(choice.example.reference)}`,
    )
  }
  const extensions = extensionGroups(result)
  lines.push('', style.bold(`Extensions: sent by one side only, not named by the spec (${extensions.length})`))
  for (const extension of extensions)
    lines.push(
      `  ${style.cyan(extension.place)}  ${extension.side} only (${extension.steps} step${extension.steps === 1 ? '' : 's'}), e.g. ${show(extension.example)}`,
    )
  if (result.skipped.length > 0) {
    lines.push('', style.bold(`Not replayed (${result.skipped.length})`))
    for (const skipped of result.skipped) lines.push(`  ${skipped.at}  ${skipped.request}: ${skipped.reason}`)
  }
  lines.push('', style.bold('Volatile values: matched by role or shape, not compared'))
  for (const value of result.volatile) lines.push(style.gray(`  ${value.where} ${value.name}: ${value.matchedBy}`))
  lines.push(
    '',
    `${sideCountsLine(result)} (${result.summary.stepsWithDifferences} step${result.summary.stepsWithDifferences === 1 ? '' : 's'} answered differently)`,
  )
  return lines.join('\n') + '\n'
}

function show(value: unknown): string {
  return formatValue(value, 100)
}
