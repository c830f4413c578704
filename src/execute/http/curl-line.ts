import type { AuthChoice } from '../../model/scenario.js'
import { envVarOfRole } from '../../plan/plan-run.js'
import { isNearMiss, nearMissShellWord } from './near-miss-token.js'

interface ReproducedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** Sent on a raw socket to see bytes after a HEAD, 204 or 304 answer. */
  readonly wire?: boolean
}

/** Seconds a raw-socket reproduction waits for stray bytes before it ends. */
export const RAW_LINE_MAX_SECONDS = 5

/**
 * A copy-pasteable reproduction; the token is an environment variable, never its value. A probe the
 * runner sent on a raw socket is reproduced the same way, since curl never shows bytes after a HEAD,
 * 204 or 304 answer: over http, bash's /dev/tcp prints every byte the server sent, stray ones included.
 */
export function curlLine(request: ReproducedRequest, auth: AuthChoice): string {
  if (request.wire && request.url.startsWith('http:')) return rawSocketLine(request, auth)
  const parts = ['curl', '-i', '-sS']
  if (request.method === 'HEAD') parts.push('-I')
  else if (request.method !== 'GET') parts.push('-X', request.method)
  parts.push(quote(request.url))
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization') {
      const word = tokenWord(auth, value)
      if (word !== undefined) parts.push('-H', `"Authorization: Bearer ${word}"`)
      else if (auth === 'invalid') parts.push('-H', quote(`authorization: ${value}`))
    } else {
      parts.push('-H', quote(`${name}: ${value}`))
    }
  }
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body))
  return parts.join(' ')
}

/**
 * `bash -c '…'`: the request written to /dev/tcp, then every line the server sends until it closes or is silent for 5
 * s (bash only: no nc or timeout needed).
 */
function rawSocketLine(request: ReproducedRequest, auth: AuthChoice): string {
  const url = new URL(request.url)
  const port = url.port || '80'
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`]
  let token = ''
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'host' || name === 'connection' || name === 'content-length') continue
    if (name === 'authorization') {
      const word = tokenWord(auth, value)
      if (word !== undefined) {
        lines.push('Authorization: Bearer %s')
        token = ` "${word}"`
      } else if (auth === 'invalid') lines.push(`authorization: ${escapePrintf(value)}`)
      continue
    }
    lines.push(`${name}: ${escapePrintf(value)}`)
  }
  if (request.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(request.body)}`)
  lines.push('Connection: close')
  const head = `${lines.join('\\r\\n')}\\r\\n\\r\\n${request.body === undefined ? '' : escapePrintf(request.body)}`
  const script = `exec 3<>/dev/tcp/${url.hostname}/${port} && printf '${head.replace(/'/g, `'\\''`)}'${token} >&3 && while IFS= read -r -t ${RAW_LINE_MAX_SECONDS} -u 3 line || [ -n "$line" ]; do printf "%s\\n" "$line"; line=; done`
  return `bash -c ${quote(script)}`
}

/** The shell word that holds the token of `auth` (`$FITCONFORM_TOKEN`); undefined when the value is no secret. */
function tokenWord(auth: AuthChoice, sent: string): string | undefined {
  if (auth === 'none' || auth === 'invalid') return undefined
  return isNearMiss(auth) ? nearMissShellWord(envVarOfRole('token'), auth, sent) : `$${envVarOfRole(auth)}`
}

/** A value inside a printf format: `%` and `\` taken literally. */
function escapePrintf(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/%/g, '%%')
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}
