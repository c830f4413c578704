// Reads a request body with a size limit (§8 leaves request size limits open; we choose 1 MiB).
import type { IncomingMessage } from 'node:http'

const bodyLimitBytes = 1024 * 1024

// Past this much we stop draining and drop the connection: nobody sends 64 MiB by accident.
const drainLimitBytes = 64 * 1024 * 1024

export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' }

/**
 * Collects the body up to `limit` bytes. A larger body is drained to its end before answering,
 * so the client finishes sending and then reads our 413 on a healthy connection; answering
 * mid-upload would close the socket under a client still writing, which most clients report as
 * a connection reset instead of the status.
 */
export function readBody(req: IncomingMessage, limit = bodyLimitBytes): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    req.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received <= limit) chunks.push(chunk)
      else if (received > drainLimitBytes) req.destroy()
    })
    req.on('end', () =>
      resolve(received > limit ? { ok: false, reason: 'too-large' } : { ok: true, body: Buffer.concat(chunks) }),
    )
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }))
    req.on('close', () => {
      if (!req.complete) resolve({ ok: false, reason: 'aborted' })
    })
  })
}
