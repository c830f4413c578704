import { describe, expect, it } from 'vitest'
import { BytesMemo } from '../../../../proxy/recording/bytes-memo.js'

describe('BytesMemo', () => {
  it('takes a value only for equal bytes, even where the fingerprint cannot tell two apart', () => {
    const memo = new BytesMemo<string>({ maxBytes: 1 << 20 })
    const kept = Buffer.alloc(4096, 'a')
    // The fingerprint samples 32 words of a 4 KiB text: a byte between two samples changes nothing in it.
    const other = Buffer.from(kept)
    other[5] = 'b'.charCodeAt(0)
    memo.set(kept, 'kept', kept.length)
    expect(memo.get(Buffer.from(kept))).toBe('kept')
    expect(memo.get(other)).toBeUndefined()
    // The same fingerprint indeed: the other takes the one place both share.
    memo.set(other, 'other', other.length)
    expect(memo.get(other)).toBe('other')
    expect(memo.get(kept)).toBeUndefined()
  })

  it('keeps what `keep` gives, so a key of reused memory can change afterwards', () => {
    const memo = new BytesMemo<number>({ maxBytes: 1 << 20 })
    const view = Buffer.from('GET /user x-request-id: 1')
    memo.set(view, 1, view.length, (key) => Buffer.from(key))
    const before = Buffer.from(view)
    view.fill(0)
    expect(memo.get(before)).toBe(1)
  })

  it('starts over when full, and keeps nothing over a sixteenth of its bound', () => {
    const memo = new BytesMemo<number>({ maxBytes: 1600 })
    const key = (n: number, length = 100) => Buffer.alloc(length, n)
    for (let n = 1; n <= 16; n += 1) memo.set(key(n), n, 100)
    expect(memo.get(key(1))).toBe(1)
    memo.set(key(17), 17, 100)
    expect(memo.get(key(1))).toBeUndefined()
    expect(memo.get(key(17))).toBe(17)
    memo.set(key(18, 101), 18, 101)
    expect(memo.get(key(18, 101))).toBeUndefined()
  })
})
