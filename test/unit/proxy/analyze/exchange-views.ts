// Hand-written exchange views for the analyzer's table tests (STYLE §2.12, §2.16).
import { matchEndpoint } from '../../../../src/spec/endpoints.js'
import { bodyFromText, NO_BODY, type ExchangeView } from '../../../../proxy/analyze/exchange-view.js'

export const mt = (name: string): string => `application/vnd.com.service.${name}+json`
export const AUTH = { authorization: 'Bearer t0k3n-value' }

export interface ViewSpec {
  method: string
  path: string
  query?: [string, string][]
  request?: Record<string, string>
  requestBody?: string
  status?: number
  response?: Record<string, string>
  body?: string
  /** When the exchange began and ended at the proxy, ms. */
  clock?: { start: number; end: number }
}

export function view(spec: ViewSpec): ExchangeView {
  const headers = (record: Record<string, string> = {}) =>
    new Map(Object.entries(record).map(([k, v]) => [k.toLowerCase(), [v]]))
  return {
    method: spec.method,
    path: spec.path,
    query: spec.query ?? [],
    endpoint: matchEndpoint(spec.method, spec.path),
    request: {
      headers: headers(spec.request),
      body: spec.requestBody === undefined ? NO_BODY : bodyFromText(spec.requestBody),
    },
    ...(spec.clock === undefined ? {} : { clock: spec.clock }),
    ...(spec.status === undefined
      ? {}
      : {
          response: {
            status: spec.status,
            headers: headers(spec.response),
            body: spec.body === undefined ? NO_BODY : bodyFromText(spec.body),
          },
        }),
  }
}
