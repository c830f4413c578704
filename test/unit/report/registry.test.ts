import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createReporters,
  DEFAULT_REPORTERS,
  parseReporterList,
  type ReporterContext,
} from '../../../src/report/registry.js'
import { planOf, sampleRun, testScreen, reported } from '../../fixtures/report/build-result.js'

describe('parseReporterList', () => {
  it.each([
    { list: 'console,json,junit', specs: [{ name: 'console' }, { name: 'json' }, { name: 'junit' }] },
    {
      list: 'json:out/results.json, junit:out/junit.xml,html,markdown',
      specs: [
        { name: 'json', option: 'out/results.json' },
        { name: 'junit', option: 'out/junit.xml' },
        { name: 'html' },
        { name: 'markdown' },
      ],
    },
    { list: ' json: ,,', specs: [{ name: 'json' }] },
    { list: './my-reporter.js', specs: [{ name: './my-reporter.js' }] },
  ])('$list', ({ list, specs }) => {
    expect(parseReporterList(list)).toEqual(specs)
  })
})

describe('createReporters', () => {
  let dir = ''
  let context: ReporterContext
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-registry-'))
    context = { outputDir: 'reports', screen: testScreen(), showPersonalData: false, cwd: dir, env: {} }
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function runAll(list: string): Promise<string[]> {
    const reporters = await createReporters(list, context)
    const result = reported(sampleRun())
    for (const reporter of reporters) await reporter.onRunEnd?.(result, planOf(result))
    return reporters.map((reporter) => (reporter as { name?: string }).name ?? '?')
  }

  it('defaults to console, json and junit', async () => {
    expect(DEFAULT_REPORTERS).toBe('console,json,junit')
    expect(await runAll(DEFAULT_REPORTERS)).toEqual(['console', 'json', 'junit'])
  })

  it('writes each file reporter to its default name in the output directory', async () => {
    expect(await runAll('json,junit,html,markdown')).toEqual(['json', 'junit', 'html', 'markdown', 'console'])
    expect((await readdir(path.join(dir, 'reports'))).sort()).toEqual([
      'junit.xml',
      'report.html',
      'results.json',
      'summary.md',
    ])
  })

  it('adds the console reporter in summary mode when nothing prints to stdout', async () => {
    await runAll('json')
    const out = (context.screen as ReturnType<typeof testScreen>).stdout()
    expect(out).not.toContain('✓ user-entry-point')
    expect(out.trimEnd().split('\n').at(-1)).toBe('2 passed, 3 failed, 1 skipped, 1 warning (3.4s)')
  })

  it('honours an explicit output path', async () => {
    await runAll('json:out/r.json')
    expect(await readdir(path.join(dir, 'out'))).toEqual(['r.json'])
  })

  it('loads a module path with a default export, relative to the working directory', async () => {
    await writeFile(
      path.join(dir, 'my-reporter.mjs'),
      'export default (options) => ({ name: "mine", printsToStdout: () => true, output: options.output, onRunEnd() { options.screen.out("custom!\\n") } })\n',
    )
    const reporters = await createReporters('./my-reporter.mjs:somewhere.txt', context)
    expect(reporters).toHaveLength(1)
    expect((reporters[0] as { output?: string }).output).toBe('somewhere.txt')
    const result = reported(sampleRun())
    await reporters[0]?.onRunEnd?.(result, planOf(result))
    expect((context.screen as ReturnType<typeof testScreen>).stdout()).toBe('custom!\n')
  })

  it('lists the reporters for an unknown name, without any internal path', async () => {
    const error = await createReporters('console,jsno', context).catch((caught: unknown) => caught)
    expect((error as Error).message).toBe(
      'unknown reporter "jsno"; the reporters are console, json, junit, html, markdown, or a module path such as ./my-reporter.js',
    )
  })

  it('names the module and keeps the cause when it cannot be imported', async () => {
    const error = await createReporters('console,./missing-reporter.js', context).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(
      /^reporter module \.\/missing-reporter\.js not found \(relative to .*\); the built-in reporters are console, json, junit, html, markdown$/,
    )
    expect((error as Error).cause).toBeInstanceOf(Error)
  })

  it('rejects an unknown console mode', async () => {
    await expect(createReporters('console:loud', context)).rejects.toThrow('unknown console reporter mode "loud"')
  })
})
