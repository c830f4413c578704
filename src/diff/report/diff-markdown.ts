import type { DiffResult } from '../diff-result.js'
import { formatValue } from '../../shared/format-value.js'
import { compareSections, conformanceGroups, extensionGroups, sideCountsLine } from './diff-groups.js'

/** The diff as Markdown for a pull request or the GitHub job summary: tables, no evidence dumps. */
export function renderDiffMarkdown(result: DiffResult): string {
  const lines: string[] = []
  const groups = conformanceGroups(result)
  const icon = result.summary.conformance > 0 ? '❌' : '✅'
  lines.push(
    `## ${icon} fitconform diff`,
    '',
    `New \`${cell(result.sides.new.label)}\` against reference \`${cell(result.sides.reference.label)}\`: ${sideCountsLine(result)}.`,
    '',
  )
  lines.push('### Conformance differences', '')
  if (groups.length === 0) lines.push('None: every rule holds on both sides alike.', '')
  else {
    lines.push('| Section | Rule | New | Reference | First step |', '| --- | --- | --- | --- | --- |')
    for (const group of groups) {
      const first = group.examples[0]
      const at = first ? `${first.scenario} step ${first.step}: \`${first.difference.path}\`` : ''
      lines.push(
        `| ${cell(group.section)} | ${cell(group.rule)} | ${cell(group.verdicts?.new ?? '')} | ${cell(group.verdicts?.reference ?? '')} | ${cell(at)} |`,
      )
    }
    lines.push('')
  }
  lines.push('### Open choices', '')
  if (result.openChoices.length === 0) lines.push('None.', '')
  else {
    lines.push('| Section | Choice | Spec | Steps | New | Reference |', '| --- | --- | --- | --- | --- | --- |')
    for (const choice of [...result.openChoices].sort((a, b) => compareSections(a.section, b.section))) {
      lines.push(
        `| ${cell(choice.section)} | ${cell(`${choice.kind}: ${choice.about}`)} | ${cell(choice.quote ? `“${choice.quote}”` : '')} | ${choice.steps} | ${cell(formatValue(choice.example.new, 60))} | ${cell(formatValue(choice.example.reference, 60))} |`,
      )
    }
    lines.push('')
  }
  const extensions = extensionGroups(result)
  lines.push('### Extensions', '')
  if (extensions.length === 0) lines.push('None.', '')
  else {
    lines.push('| Header or field | Sent by | Steps |', '| --- | --- | --- |')
    for (const extension of extensions)
      lines.push(`| \`${cell(extension.place)}\` | ${extension.side} | ${extension.steps} |`)
    lines.push('')
  }
  if (result.skipped.length > 0) {
    lines.push(`### Not replayed (${result.skipped.length})`, '', '| Where | Request | Why |', '| --- | --- | --- |')
    for (const skipped of result.skipped)
      lines.push(`| ${cell(skipped.at)} | ${cell(skipped.request)} | ${cell(skipped.reason)} |`)
    lines.push('')
  }
  lines.push('<details><summary>Volatile values (matched by role or shape, not compared)</summary>', '')
  for (const value of result.volatile) lines.push(`- ${value.where} **${cell(value.name)}**: ${cell(value.matchedBy)}`)
  lines.push('', '</details>', '')
  return lines.join('\n')
}

/** A table cell: pipes escaped, one line, markup of a server's text shown as text. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ')
}
