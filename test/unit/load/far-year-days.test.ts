// The far-year day table of suites/README.md, held to the built-in suite: every day of the far year a
// scenario dates an activity on or reads a scope of belongs, in that table, to the scenario's own file,
// and no day belongs to two files. Scenarios run concurrently and judge what a day's scope holds, so a
// day used by two files would make one's verdict depend on the other's timing.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadSuites } from '../../../src/load/load-suites.js'
import type { Scenario, Step } from '../../../src/model/scenario.js'
import { MONTHS } from '../../../src/validation/calendar.js'

const SUITES = join(import.meta.dirname, '../../../suites')

interface TableRow {
  readonly month: number
  readonly days: ReadonlySet<number>
  readonly file: string
  readonly line: number
}

/** `all`, `1–15`, `3, 7`, `20` (the README writes ranges with an en dash). */
function daysOf(text: string): Set<number> {
  if (text.trim() === 'all') return new Set(Array.from({ length: 31 }, (_, index) => index + 1))
  const days = new Set<number>()
  for (const part of text.split(',')) {
    const [from, to = from] = part.trim().split('–').map(Number)
    for (let day = from!; day <= to!; day += 1) days.add(day)
  }
  return days
}

function tableOf(readme: string): TableRow[] {
  const rows: TableRow[] = []
  readme.split('\n').forEach((text, index) => {
    const cells = text.split('|').map((cell) => cell.trim())
    const month = (MONTHS as readonly string[]).indexOf(cells[1] ?? '') + 1
    if (month === 0) return
    rows.push({ month, days: daysOf(cells[2]!), file: cells[3]!.replaceAll('`', ''), line: index + 1 })
  })
  return rows
}

/** The requests a scenario sends, those of its `parallel:` groups included. */
function requestsOf(steps: readonly Step[]): unknown[] {
  return steps.flatMap((step) => [step.request, ...requestsOf((step.parallel ?? []).map((branch) => branch.step))])
}

/**
 * Every far-year day a scenario's requests name (a start time it creates, a scope it reads): `date(M, D…)`
 * and `${run.farYear}-MM-DD`. Checks are left out: their bounds reach a day either side for the zone a
 * server reads start times in (suites/README.md), without using those days.
 */
function daysNamedBy(scenario: Scenario): { month: number; day: number }[] {
  const text = JSON.stringify(requestsOf([...scenario.steps, ...scenario.cleanup]))
  const named = [
    ...text.matchAll(/run\.farYear \| date\((\d+), (\d+)/g),
    ...text.matchAll(/\$\{run\.farYear\}-(\d\d)-(\d\d)/g),
  ]
  return named.map((match) => ({ month: Number(match[1]), day: Number(match[2]) }))
}

let scenarios: readonly Scenario[]
let table: TableRow[]
beforeAll(async () => {
  const loaded = await loadSuites([SUITES])
  expect(loaded.diagnostics).toEqual([])
  scenarios = loaded.scenarios
  table = tableOf(readFileSync(join(SUITES, 'README.md'), 'utf8'))
})

describe('suites/README.md far-year day table', () => {
  it('reads a row for each file that holds far-year days', () => {
    expect(table.length).toBeGreaterThan(20)
  })

  it("gives every day a scenario uses to that scenario's own file", () => {
    const strays: string[] = []
    let named = 0
    for (const scenario of scenarios) {
      const file = relative(SUITES, scenario.file)
      for (const { month, day } of daysNamedBy(scenario)) {
        named += 1
        if (!table.some((row) => row.file === file && row.month === month && row.days.has(day)))
          strays.push(`${scenario.id} (${file}): ${MONTHS[month - 1]} ${day}`)
      }
    }
    expect(named).toBeGreaterThan(50) // the scan finds the suite's days at all
    expect([...new Set(strays)]).toEqual([])
  })

  it('gives no day to two files', () => {
    const clashes: string[] = []
    for (const [index, row] of table.entries()) {
      for (const other of table.slice(index + 1)) {
        const shared = [...row.days].filter(
          (day) => other.month === row.month && other.file !== row.file && other.days.has(day),
        )
        if (shared.length > 0)
          clashes.push(
            `${MONTHS[row.month - 1]} ${shared.join(', ')}: ${row.file} (line ${row.line}) and ${other.file} (line ${other.line})`,
          )
      }
    }
    expect(clashes).toEqual([])
  })

  it('lists no file the suite does not hold', () => {
    const files = new Set(scenarios.map((scenario) => relative(SUITES, scenario.file)))
    expect(table.map((row) => row.file).filter((file) => !files.has(file))).toEqual([])
  })
})
