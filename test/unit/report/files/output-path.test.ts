import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resolveOutputFile, writeReportFile } from '../../../../src/report/files/output-path.js'

describe('resolveOutputFile', () => {
  let dir = ''
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fitconform-out-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('uses <output-dir>/<default name> and creates the directory', async () => {
    const file = await resolveOutputFile({ outputDir: 'reports/ci', defaultName: 'junit.xml', cwd: dir })
    expect(file).toBe(path.join(dir, 'reports', 'ci', 'junit.xml'))
    expect((await stat(path.dirname(file))).isDirectory()).toBe(true)
  })

  it('prefers the path given with the reporter, relative to the working directory', async () => {
    const file = await resolveOutputFile({
      explicit: 'out/deep/mine.xml',
      outputDir: 'reports',
      defaultName: 'junit.xml',
      cwd: dir,
    })
    expect(file).toBe(path.join(dir, 'out', 'deep', 'mine.xml'))
    expect((await stat(path.dirname(file))).isDirectory()).toBe(true)
  })

  it('keeps an absolute path as it is', async () => {
    const absolute = path.join(dir, 'abs.json')
    expect(
      await resolveOutputFile({
        explicit: absolute,
        outputDir: 'reports',
        defaultName: 'results.json',
        cwd: '/elsewhere',
      }),
    ).toBe(absolute)
  })

  it('writes a text given in parts as the parts joined, across batches, with characters of several bytes', async () => {
    const parts = [
      ...Array.from({ length: 3_000 }, (_, i) => `{"n": ${i}, "name": "Zoë 🏃 ${'é'.repeat(i % 40)}"},\n`),
      'x'.repeat(100_000),
      '→'.repeat(30_000),
      'end',
    ]
    const file = await writeReportFile({ outputDir: 'out', cwd: dir }, 'parts.json', parts)
    expect(await readFile(file, 'utf8')).toBe(parts.join(''))
  })
})
