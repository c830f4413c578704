import type { DiffResult, StepDiff } from '../diff-result.js'
import { formatValue } from '../../shared/format-value.js'
import { compareSections, conformanceGroups, extensionGroups, sideCountsLine } from './diff-groups.js'

/*
 * One self-contained HTML file: the summary, then every step that answered differently, new and
 * reference side by side. Every text that came from a server is escaped (a body may hold markup).
 */

const STYLE = `body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}th{background:#f4f4f4}
code,pre{font:12px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all;margin:0}
.conformance{background:#fde8e8}.open-choice{background:#fff7e0}.extension{background:#e8f1fd}h3{margin-top:2em}`

export function renderDiffHtml(result: DiffResult): string {
  const parts: string[] = []
  parts.push(
    `<h1>fitconform diff</h1><p>New <code>${esc(result.sides.new.label)}</code> against reference <code>${esc(result.sides.reference.label)}</code>: ${esc(sideCountsLine(result))}.</p>`,
  )
  parts.push(
    '<h2>Conformance differences</h2>',
    table(
      ['Section', 'Rule', 'New', 'Reference', 'Quote'],
      conformanceGroups(result).map((g) => [
        g.section,
        g.rule,
        g.verdicts?.new ?? '',
        g.verdicts?.reference ?? '',
        g.quote,
      ]),
      'conformance',
    ),
  )
  const choices = [...result.openChoices].sort((a, b) => compareSections(a.section, b.section))
  parts.push(
    '<h2>Open choices</h2>',
    table(
      ['Section', 'Choice', 'The spec', 'Steps', 'New', 'Reference'],
      choices.map((c) => [
        c.section,
        `${c.kind}: ${c.about}`,
        c.quote,
        String(c.steps),
        formatValue(c.example.new),
        formatValue(c.example.reference),
      ]),
      'open-choice',
    ),
  )
  parts.push(
    '<h2>Extensions</h2>',
    table(
      ['Header or field', 'Sent by', 'Steps'],
      extensionGroups(result).map((e) => [e.place, e.side, String(e.steps)]),
      'extension',
    ),
  )
  if (result.skipped.length > 0)
    parts.push(
      '<h2>Not replayed</h2>',
      table(
        ['Where', 'Request', 'Why'],
        result.skipped.map((s) => [s.at, s.request, s.reason]),
        '',
      ),
    )
  parts.push(
    '<h2>Volatile values</h2>',
    table(
      ['Where', 'Value', 'Matched by'],
      result.volatile.map((v) => [v.where, v.name, v.matchedBy]),
      '',
    ),
  )
  parts.push('<h2>Steps, side by side</h2>', ...result.steps.map(stepSection))
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>fitconform diff</title><style>${STYLE}</style></head><body>\n${parts.join('\n')}\n</body></html>\n`
}

function stepSection(step: StepDiff): string {
  const rows = step.differences.map(
    (d) =>
      `<tr class="${d.class}"><td>${esc(d.class)}<br><code>${esc(d.kind)}</code></td><td><code>${esc(d.path)}</code></td><td><pre>${esc(formatValue(d.new, 2000))}</pre></td><td><pre>${esc(formatValue(d.reference, 2000))}</pre></td><td>${esc(d.section)} ${esc(d.note ?? '')}</td></tr>`,
  )
  return `<h3>${esc(step.scenario)} step ${step.step}: ${esc(step.name)}</h3><p><code>${esc(step.request)}</code></p><table><tr><th>Class</th><th>Where</th><th>New</th><th>Reference</th><th>Why</th></tr>${rows.join('')}</table>`
}

function table(head: readonly string[], rows: readonly (readonly string[])[], rowClass: string): string {
  if (rows.length === 0) return '<p>None.</p>'
  const body = rows
    .map((row) => `<tr class="${rowClass}">${row.map((text) => `<td>${esc(text)}</td>`).join('')}</tr>`)
    .join('')
  return `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${body}</table>`
}

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
