import type { HttpClient, IncomingResponse, OutgoingRequest } from '../http/http-exchange.js'
import {
  ACTIVITY_PATH_SHAPE,
  FEED_PATH,
  PROFILE_PATH,
  activityUrlUnder,
  isFeedUrlUnder,
  isProfileUrlUnder,
} from '../../spec/paths.js'

/**
 * The ownership gate: the one place every PUT, POST and DELETE of every mode passes (scenario steps,
 * the permission matrix, fuzz, scaffolded files, cleanup, restores), as a wrapper round the HTTP
 * client, so no scenario can go round it. (Not to be confused with the lane gate of write-gate.ts,
 * which only orders writes in time.) What may be written, under the base URL only:
 *
 * - POST to the feed (§4 endpoint 4): a create. The collection is never any other write's target.
 * - PUT to the profile (§4 endpoint 6): the runner's profile guard decides what goes in it.
 * - PUT, POST or DELETE to one activity (`<feed>/<one non-empty id>`) once it was *admitted*:
 *   proven the run's own by a read made before any write of the run to it (ownership.ts). A marker
 *   the run wrote by an edit never proves anything, because an edit never reaches an activity that
 *   was not admitted first.
 *
 * Anything else is refused unsent. Once writes are stopped (the ledger could not be written), only
 * the deletes of admitted activities and profile restores still pass: what was created is still
 * cleaned up, nothing new is changed.
 */
export interface OwnershipGate {
  /** Why this request must not be sent, or undefined when it may. */
  refusal(method: string, url: string): string | undefined
  /** An activity proven the run's own; its canonical URL from then on may be written. */
  admit(url: string): void
  isAdmitted(url: string): boolean
  /** No further create or edit is sent; deletes of admitted activities and profile restores still are. */
  stopWrites(reason: string): void
  readonly stopped: string | undefined
  /** The client every request of the run goes through: a refused write throws WriteRefusedError, unsent. */
  guard(client: HttpClient): HttpClient
}

/** A write the ownership gate did not let out; nothing reached the server. */
export class WriteRefusedError extends Error {
  override readonly name = 'WriteRefusedError'
  constructor(
    readonly method: string,
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${method} ${url} not sent: ${reason}`)
  }
}

export function createOwnershipGate(baseUrl: URL): OwnershipGate {
  const admitted = new Set<string>()
  let stopped: string | undefined
  const refusal = (method: string, url: string): string | undefined => {
    if (method === 'GET' || method === 'HEAD') return undefined
    if (method === 'POST' && isFeedUrlUnder(url, baseUrl)) return stopped ? `writes are stopped: ${stopped}` : undefined
    if (method === 'PUT' && isProfileUrlUnder(url, baseUrl)) return undefined
    const activity = activityUrlUnder(url, baseUrl)
    if (!activity)
      return `a ${method} goes only to ${ACTIVITY_PATH_SHAPE} (one non-empty id) under ${baseUrl.toString()}, to ${FEED_PATH} to create, or ${PROFILE_PATH} to edit`
    if (!admitted.has(activity))
      return `${activity} was not proven the run's own when it was created (a read of it showing the run's marker and the values the create sent), so nothing of the run may change it`
    if (stopped && method !== 'DELETE') return `writes are stopped: ${stopped}`
    return undefined
  }
  return {
    refusal,
    admit(url) {
      const activity = activityUrlUnder(url, baseUrl)
      if (activity) admitted.add(activity)
    },
    isAdmitted: (url) => {
      const activity = activityUrlUnder(url, baseUrl)
      return activity !== undefined && admitted.has(activity)
    },
    stopWrites(reason) {
      stopped ??= reason
    },
    get stopped() {
      return stopped
    },
    guard(client) {
      return {
        send: (request: OutgoingRequest): Promise<IncomingResponse> => {
          const reason = refusal(request.method, request.url)
          return reason
            ? Promise.reject(new WriteRefusedError(request.method, request.url, reason))
            : client.send(request)
        },
        close: () => client.close(),
      }
    },
  }
}
