/** What the runner sends and gets back, whichever client carries it (http-client.ts over undici, wire-client.ts on a raw socket). */

export interface HttpClientOptions {
  readonly timeoutMs: number
  /** PEM text of extra certificate authorities (--ca). */
  readonly ca?: string
  readonly insecure: boolean
  /** A response body larger than this (as sent, or once decoded) is not read on: BodyTooLargeError. */
  readonly maxBodyBytes?: number
}

export interface OutgoingRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** Read the raw bytes on a fresh socket (see wire-client.ts). */
  readonly wire: boolean
}

export interface IncomingResponse {
  readonly status: number
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "\n"). */
  readonly headers: Readonly<Record<string, string>>
  /** Decoded when the server sent a Content-Encoding (gzip, deflate, br). */
  readonly body: Buffer
  /** Bytes on the wire, before decoding: what Content-Length counts. */
  readonly wireBytes: number
  readonly durationMs: number
  /** Set when the request was sent a second time on a fresh connection (reused-connection.ts): why. */
  readonly resent?: string
}

export interface HttpClient {
  send(request: OutgoingRequest): Promise<IncomingResponse>
  close(): Promise<void>
}
