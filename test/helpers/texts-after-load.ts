// Started by test/integration/load/file-texts-released.test.ts with --expose-gc: loads a folder of
// scenario files and keeps what the load gave, keeps the text of one more file as a control, and
// prints how many strings of the heap then hold each given line within a longer text (a file's
// whole text, if some string cut from it keeps it alive; the line itself, given here, is not counted).
import { readFileSync } from 'node:fs'
import { getHeapSnapshot } from 'node:v8'
import { loadSuites } from '../../src/load/load-suites.js'

const [folder, control, ...lines] = process.argv.slice(2)
const kept = { loaded: await loadSuites([folder!]), control: readFileSync(control!, 'utf8') }
const collect = (globalThis as { gc?: () => void }).gc
if (!collect) throw new Error('start this with node --expose-gc')
collect()
let snapshot = ''
for await (const chunk of getHeapSnapshot()) snapshot += String(chunk)
const strings = (JSON.parse(snapshot) as { strings: string[] }).strings
const holding = (line: string): number =>
  strings.filter((each) => each.length > line.length && each.includes(line)).length
const counts = Object.fromEntries(lines.map((line) => [line, holding(line)]))
process.stdout.write(
  JSON.stringify({ scenarios: kept.loaded.scenarios.length, control: kept.control.length, counts }) + '\n',
)
