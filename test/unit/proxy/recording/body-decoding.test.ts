import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeBody } from '../../../../proxy/recording/body-decoding.js'

const captured = (bytes: Buffer, size = bytes.length) => ({ bytes, size, truncated: size > bytes.length })

describe('decodeBody', () => {
  it('gives an empty body the empty text, encoded or not', async () => {
    const expected = { transferSize: 0, truncated: false, decodeError: undefined, text: '' }
    expect(await decodeBody(captured(Buffer.alloc(0)), undefined, 1 << 20)).toMatchObject(expected)
    // `identity` names no coding: the same empty text.
    expect(await decodeBody(captured(Buffer.alloc(0)), 'identity', 1 << 20)).toMatchObject(expected)
  })

  it('undoes gzip and keeps the transfer size', async () => {
    const text = JSON.stringify({ hello: 'world'.repeat(100) })
    const zipped = gzipSync(text)
    const decoded = await decodeBody(captured(zipped), 'gzip', 1 << 20)
    expect(decoded.text).toBe(text)
    expect(decoded.transferSize).toBe(zipped.length)
  })

  it('decodes a truncated gzip body as far as it goes', async () => {
    const zipped = gzipSync('x'.repeat(10_000) + 'y'.repeat(10_000))
    const decoded = await decodeBody(captured(zipped.subarray(0, 30), zipped.length), 'gzip', 1 << 20)
    expect(decoded.truncated).toBe(true)
    expect(decoded.decodeError).toBeUndefined()
  })

  it('stops a decompression bomb at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024))
    const decoded = await decodeBody(captured(bomb), 'gzip', 1024)
    expect(decoded.bytes.length).toBe(1024)
    expect(decoded.truncated).toBe(true)
  })

  it.each([
    { bytes: Buffer.from('plain text'), text: 'plain text' },
    { bytes: Buffer.from([0, 1, 2, 255]), text: undefined },
    { bytes: Buffer.from('héllo'), text: 'héllo' },
  ])('text or binary: $bytes', async ({ bytes, text }) => {
    expect((await decodeBody(captured(bytes), undefined, 1 << 20)).text).toBe(text)
  })

  it('reports an unknown coding and keeps the raw bytes', async () => {
    const decoded = await decodeBody(captured(Buffer.from('abc')), 'compress', 100)
    expect(decoded.decodeError).toContain('compress')
    expect(decoded.text).toBeUndefined()
  })
})
