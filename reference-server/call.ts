// What a handler gets: the parsed request, who is calling, and the server instance's state.
import type { IncomingHttpHeaders } from 'node:http'
import type { Grant } from './data/demo-accounts.js'
import type { Faults } from './faults/faults.js'
import type { ModeBehaviour, ServerMode } from './modes.js'
import type { Reply } from './http/reply.js'
import type { Clock, Store } from './store/store.js'

/** Everything one server instance owns; shared by all its requests. */
export interface ServerContext {
  readonly mode: ServerMode
  readonly behaviour: ModeBehaviour
  readonly store: Store
  readonly faults: Faults
  readonly now: Clock
  /** A path prefix the server is mounted under ('' or e.g. '/api'); {base_url} = origin + basePath. */
  readonly basePath: string
  /** The server's own address, used when a request has no Host header (HTTP/1.0). */
  readonly ownOrigin: () => string
}

export interface Call {
  /** The method the handler serves: a HEAD request reaches the GET handler as 'GET'. */
  readonly method: string
  /** True when the request was a HEAD (served by the GET handler; send-reply.ts drops the body). */
  readonly isHead: boolean
  /** The path as the client sent it, base path included, e.g. to build absolute links. */
  readonly pathname: string
  readonly query: URLSearchParams
  readonly headers: IncomingHttpHeaders
  /** `http://<Host header>`: the address the client used, so links work through proxies. */
  readonly origin: string
  /** The `<activity_id>` path segment, decoded, when the route has one. */
  readonly activityId: string | undefined
  readonly grant: Grant
  /** The request body, read (up to the size limit) for POST and PUT only. */
  readonly body: Buffer | undefined
  readonly server: ServerContext
}

export type Handler = (call: Call) => Reply | Promise<Reply>
