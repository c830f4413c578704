import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordingParts } from '../../../proxy/commands/recording-parts.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

/** A folder holding a recording rotated twice (`r.ndjson.1`, `r.ndjson.2`, `r.ndjson`) and another one. */
function rotated(): { dir: string; base: string } {
  const dir = makeTempDir('fitconform-parts-')
  const base = join(dir, 'r.ndjson')
  for (const name of ['r.ndjson.1', 'r.ndjson.2', 'r.ndjson', 'other.ndjson']) writeFileSync(join(dir, name), '')
  return { dir, base }
}

function collect(): { io: { out: (line: string) => void; err: (line: string) => void }; errors: string[] } {
  const errors: string[] = []
  return { io: { out: () => {}, err: (line) => errors.push(line) }, errors }
}

describe('recordingParts', () => {
  it('expands a recording to its rotated parts, oldest first', () => {
    const { base } = rotated()
    expect(recordingParts([base], collect().io)).toEqual([`${base}.1`, `${base}.2`, base])
  })

  it('reads a part named next to its recording once, in its place (a shell glob names them all)', () => {
    const { base } = rotated()
    expect(recordingParts([base, `${base}.1`, `${base}.2`], collect().io)).toEqual([`${base}.1`, `${base}.2`, base])
    expect(recordingParts([`${base}.2`, base], collect().io)).toEqual([`${base}.1`, `${base}.2`, base])
  })

  it('reads a part named alone, alone, and several recordings in the order given', () => {
    const { dir, base } = rotated()
    expect(recordingParts([`${base}.2`], collect().io)).toEqual([`${base}.2`])
    expect(recordingParts([join(dir, 'other.ndjson'), base], collect().io)).toEqual([
      join(dir, 'other.ndjson'),
      `${base}.1`,
      `${base}.2`,
      base,
    ])
  })

  it('names the recordings that do not exist', () => {
    const { dir, base } = rotated()
    const { io, errors } = collect()
    expect(recordingParts([base, join(dir, 'nope.ndjson')], io)).toBeUndefined()
    expect(errors).toHaveLength(1)
    const [header, hint] = errors[0]!.split('\n')
    expect(header).toBe(`error[E_NO_RECORDING]: no such recording: ${join(dir, 'nope.ndjson')}`)
    expect(hint).toMatch(/^ += hint: name a file/)
  })
})
