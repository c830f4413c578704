import { describe, expect, it } from 'vitest'
import { TextMemo } from '../../../../proxy/analyze/text-memo.js'

describe('TextMemo', () => {
  it('computes a text once per name and keeps names apart', () => {
    const memo = new TextMemo<string>({ maxChars: 100, maxTextChars: 10 })
    let calls = 0
    const compute = (result: string) => () => {
      calls += 1
      return result
    }
    expect(memo.get('Feed', '{"a":1}', compute('first'))).toBe('first')
    expect(memo.get('Feed', '{"a":1}', compute('second'))).toBe('first')
    expect(memo.get('User', '{"a":1}', compute('user'))).toBe('user')
    expect(calls).toBe(2)
  })

  it('does not keep texts longer than its limit, and starts over when full', () => {
    const memo = new TextMemo<number>({ maxChars: 10, maxTextChars: 6 })
    let calls = 0
    const count = () => ++calls
    memo.get('n', 'x'.repeat(7), count)
    memo.get('n', 'x'.repeat(7), count)
    expect(calls).toBe(2) // too long to keep
    memo.get('n', 'aaaaaa', count) // 6 characters kept
    memo.get('n', 'bbbbbb', count) // 12 > 10: the memo starts over with this one
    memo.get('n', 'bbbbbb', count)
    memo.get('n', 'aaaaaa', count)
    expect(calls).toBe(5)
  })

  it('keeps, by default, the text of an activity with a long path (tens of kilobytes)', () => {
    const memo = new TextMemo<number>()
    const activity = JSON.stringify({
      path: Array.from({ length: 1500 }, (_, i) => ({ latitude: i / 7, longitude: -i / 9 })),
    })
    expect(activity.length).toBeGreaterThan(70_000)
    let calls = 0
    memo.get('', activity, () => ++calls)
    memo.get('', activity, () => ++calls)
    expect(calls).toBe(1)
  })
})
