import { describe, expect, it } from 'vitest'
import { createRedactor } from '../../../../src/execute/finalize/redact.js'

const TOKEN = 'tok-3f9a7c21'
const OTHER = 'tok-3f9a7c21-other'
const redact = createRedactor(
  new Map([
    [TOKEN, 'token'],
    [OTHER, 'other-token'],
  ]),
)

describe('createRedactor', () => {
  it.each([
    { value: `Bearer ${TOKEN}`, redacted: 'Bearer [REDACTED token]' },
    { value: `Bearer ${OTHER}`, redacted: 'Bearer [REDACTED other-token]' },
    { value: `${TOKEN},${TOKEN}`, redacted: '[REDACTED token],[REDACTED token]' },
    {
      value: `https://h/x?access_token=${OTHER}&t=${TOKEN}`,
      redacted: 'https://h/x?access_token=[REDACTED other-token]&t=[REDACTED token]',
    },
    { value: 'no secret here', redacted: 'no secret here' },
    { value: 42, redacted: 42 },
    { value: null, redacted: null },
    { value: true, redacted: true },
    {
      value: { headers: { authorization: `Bearer ${TOKEN}` }, body: { notes: [`a ${OTHER} b`, 3, { deep: TOKEN }] } },
      redacted: {
        headers: { authorization: 'Bearer [REDACTED token]' },
        body: { notes: ['a [REDACTED other-token] b', 3, { deep: '[REDACTED token]' }] },
      },
    },
    {
      value: { [TOKEN]: 'value', [`x-${OTHER}`]: 1 },
      redacted: { '[REDACTED token]': 'value', 'x-[REDACTED other-token]': 1 },
    },
  ])('replaces secrets by value, longest first: $value → $redacted', ({ value, redacted }) => {
    expect(redact(value)).toEqual(redacted)
  })

  it('leaves the value it redacts unchanged', () => {
    const value = { headers: { authorization: `Bearer ${TOKEN}` }, list: [TOKEN] }
    const copy = structuredClone(value)
    const redacted = redact(value)
    expect(value).toEqual(copy)
    expect(JSON.stringify(redacted)).not.toContain(TOKEN)
  })

  it('keeps what it redacted before as it is and redacts what is new around it', () => {
    const redactor = createRedactor(new Map([[TOKEN, 'token']]))
    const step = redactor({ url: `https://h/x?t=${TOKEN}`, assertions: [{ message: `got ${TOKEN}` }] })
    const run = redactor({
      title: `about ${TOKEN}`,
      steps: [step],
      warnings: [step.assertions[0]],
      extra: { [TOKEN]: [TOKEN] },
    })
    expect(run.steps[0]).toBe(step)
    expect(run.warnings[0]).toBe(step.assertions[0])
    expect(run).toEqual({
      title: 'about [REDACTED token]',
      steps: [{ url: 'https://h/x?t=[REDACTED token]', assertions: [{ message: 'got [REDACTED token]' }] }],
      warnings: [{ message: 'got [REDACTED token]' }],
      extra: { '[REDACTED token]': ['[REDACTED token]'] },
    })
  })

  it('walks again an object it did not return, even one holding the same values', () => {
    const redactor = createRedactor(new Map([[TOKEN, 'token']]))
    const step = redactor({ url: TOKEN })
    expect(redactor({ ...step, error: `failed with ${TOKEN}` })).toEqual({
      url: '[REDACTED token]',
      error: 'failed with [REDACTED token]',
    })
  })

  it('redacts the Authorization header by name, whatever the length of its token', () => {
    const value = { authorization: 'Bearer x', accept: 'application/json' }
    expect(createRedactor(new Map())(value)).toEqual({ authorization: 'Bearer [REDACTED]', accept: 'application/json' })
  })
})

describe('redaction of encoded forms', () => {
  it('replaces a token also where it appears percent-encoded or JSON-escaped', () => {
    const secret = 'abc/def+ghi=="x'
    const redact = createRedactor(new Map([[secret, 'token']]))
    const text = `link ?t=${encodeURIComponent(secret)} body ${JSON.stringify({ t: secret })}`
    const redacted = redact(text)
    expect(redacted).not.toContain(encodeURIComponent(secret))
    expect(redacted).not.toContain(JSON.stringify(secret).slice(1, -1))
    expect(redacted).toContain('[REDACTED token]')
  })
})
