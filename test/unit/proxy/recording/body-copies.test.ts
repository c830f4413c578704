import { describe, expect, it } from 'vitest'
import { BodyCopies } from '../../../../proxy/recording/bytes-memo.js'
import { decodeBody } from '../../../../proxy/recording/body-decoding.js'

const page = (n: number): Buffer => Buffer.from(JSON.stringify({ items: [], n, pad: 'x'.repeat(2000) }))

describe('BodyCopies', () => {
  it('hands out one copy for bytes seen again, a copy of its own for other bytes', () => {
    const copies = new BodyCopies({ maxBytes: 1 << 20 })
    const first = copies.copy(page(1))
    expect(copies.copy(page(1))).toBe(first)
    const other = copies.copy(page(2))
    expect(other).not.toBe(first)
    expect(other.equals(page(2))).toBe(true)
  })

  it('copies: the ring may write over the bytes it was handed', () => {
    const copies = new BodyCopies({ maxBytes: 1 << 20 })
    const ring = page(3)
    const kept = copies.copy(ring)
    ring.fill(0)
    expect(kept.equals(page(3))).toBe(true)
    expect(copies.copy(ring)).not.toBe(kept)
  })

  it('keeps no more than its bytes: when full it starts over', () => {
    const copies = new BodyCopies({ maxBytes: 64 * 1024 })
    const first = copies.copy(page(0))
    for (let n = 1; n < 40; n += 1) copies.copy(page(n))
    expect(copies.copy(page(0))).not.toBe(first)
  })

  it('copies short bodies each time', () => {
    const copies = new BodyCopies({ maxBytes: 1 << 20 })
    const short = Buffer.from('{"size":0}')
    expect(copies.copy(short)).not.toBe(copies.copy(short))
  })
})

describe('decodeBody of a kept copy', () => {
  it('gives the very text of the first reading, and decodes anew under another encoding', async () => {
    const copies = new BodyCopies({ maxBytes: 1 << 20 })
    const captured = () => ({ bytes: copies.copy(page(5)), size: page(5).length, truncated: false })
    const first = await decodeBody(captured(), undefined, 1 << 20)
    const again = await decodeBody(captured(), undefined, 1 << 20)
    expect(again).toBe(first)
    expect(first.text).toBe(page(5).toString())
    const identity = await decodeBody(captured(), 'identity', 1 << 20)
    expect(identity).not.toBe(first)
    expect(identity.text).toBe(first.text)
  })
})
