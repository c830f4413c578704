import type { AuthChoice } from '../model/scenario.js'
import { envVarOfRole } from '../plan/plan-run.js'

/** A copy-pasteable reproduction; the token is an environment variable, never its value. */
export function curlLine(request: { method: string; url: string; headers: Readonly<Record<string, string>>; body?: string }, auth: AuthChoice): string {
  const parts = ['curl', '-i', '-sS']
  if (request.method === 'HEAD') parts.push('-I')
  else if (request.method !== 'GET') parts.push('-X', request.method)
  parts.push(quote(request.url))
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization') {
      if (auth !== 'none' && auth !== 'invalid') parts.push('-H', `"Authorization: Bearer $${envVarOfRole(auth)}"`)
      else if (auth === 'invalid') parts.push('-H', quote(`authorization: ${value}`))
    } else {
      parts.push('-H', quote(`${name}: ${value}`))
    }
  }
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body))
  return parts.join(' ')
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}
