/** One measured figure: a row of the printed table and an entry of reports/bench.json. */
export interface Figure {
  /** 'runner overhead', 'concurrency', 'proxy', 'recording', 'throughput'. */
  readonly benchmark: string
  readonly name: string
  readonly value: number
  readonly unit: string
  /** The goal of issue 8 this figure is held to, if any. */
  readonly goal?: Goal
  readonly met?: boolean
  /** The individual runs behind a median. */
  readonly samples?: readonly number[]
  readonly note?: string
}

export interface Goal {
  readonly comparison: '<' | '<='
  readonly limit: number
}

export function figure(fields: Omit<Figure, 'met'>): Figure {
  if (!fields.goal) return fields
  const { comparison, limit } = fields.goal
  const met = comparison === '<' ? fields.value < limit : fields.value <= limit
  return { ...fields, met }
}

/** The one table `npm run bench` prints: benchmark, figure, value, goal, verdict. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((each) => [
    each.benchmark,
    each.name,
    `${formatValue(each.value)} ${each.unit}`.trim(),
    each.goal ? `${each.goal.comparison} ${formatValue(each.goal.limit)} ${each.unit}`.trim() : '',
    each.met === undefined ? '' : each.met ? 'met' : 'MISSED',
  ])
  const header = ['benchmark', 'figure', 'value', 'goal', '']
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === 2 || column === 3 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd()
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n')
}

function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (Math.abs(value) >= 100) return String(Math.round(value))
  if (Math.abs(value) >= 10) return value.toFixed(1)
  return value.toFixed(2)
}
