import { describe, expect, it } from 'vitest'
import { ExchangeMemo } from '../../../../proxy/recording/bytes-memo.js'

const identity = (n: number): Buffer => Buffer.from(`GET /fitnessActivities/${n} x-request-id: ${n}`)

describe('ExchangeMemo', () => {
  it('finds an exchange made again, byte for byte', () => {
    const memo = new ExchangeMemo<string>({ maxBytes: 1 << 20 })
    memo.set(identity(1), 'one', 10)
    expect(memo.get(identity(1))).toBe('one')
    expect(memo.get(identity(2))).toBeUndefined()
  })

  it('keeps only one in sixteen while no exchange is found again, and all of them once one is', () => {
    const memo = new ExchangeMemo<number>({ maxBytes: 1 << 24 })
    for (let n = 0; n < 256; n += 1) memo.set(identity(n), n, 10)
    // A window of 256 exchanges that all differed: from here, one in 16 is kept.
    for (let n = 1000; n < 1032; n += 1) memo.set(identity(n), n, 10)
    const kept = Array.from({ length: 32 }, (_, i) => 1000 + i).filter((n) => memo.get(identity(n)) !== undefined)
    expect(kept).toHaveLength(2)
    // One was found again (a client polling): every exchange is kept again.
    for (let n = 2000; n < 2010; n += 1) memo.set(identity(n), n, 10)
    expect(Array.from({ length: 10 }, (_, i) => memo.get(identity(2000 + i)))).toEqual(
      Array.from({ length: 10 }, (_, i) => 2000 + i),
    )
  })
})
