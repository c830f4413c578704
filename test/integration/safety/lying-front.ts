import type { IncomingMessage, ServerResponse } from 'node:http'
import { request } from 'undici'
import { startReferenceServer, type RunningReferenceServer } from '../../../reference-server/index.js'
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

/**
 * A real account behind a buggy front: the reference server holds both users' activities and
 * profiles (the "real" data), and a front on 127.0.0.1 forwards every request to it, lying as told.
 * Each lie is a plausible server bug that once cost a user data. `snapshot()` reads both accounts
 * straight from the reference server, so a test compares the account before and after byte for byte.
 */
export interface Bugs {
  /** The Location of a create names the user's newest existing activity ("the new id" found by start time). */
  readonly locationNamesNewest?: boolean | ((createIndex: number) => boolean)
  /** The Location of a create has an empty id (`/fitnessActivities/`): on every create, or on those the function picks. */
  readonly emptyIdLocation?: boolean | ((createIndex: number) => boolean)
  /**
   * DELETE of the collection (`/fitnessActivities/`) deletes every activity of the user; its other
   * methods act on the newest created activity (the empty id taken as "the latest").
   */
  readonly collectionDeleteClears?: boolean
  /** Profiles are shown without athlete_type (the stored value stays). */
  readonly profileHidesAthleteType?: boolean
  /** A profile edit by the other user is applied to the main user's profile too. */
  readonly profileEditLeaks?: boolean
  /** Called on every create before it is forwarded. */
  readonly onCreate?: (index: number) => void
}

export interface LyingAccount {
  readonly url: string
  readonly backend: RunningReferenceServer
  readonly front: LoopbackServer
  /** Both users' activities (each as a read returns it) and profiles, as one text. */
  snapshot(): Promise<string>
  /** Requests the front forwarded that change something: "METHOD /path". */
  writes(): string[]
  close(): Promise<void>
}

const FEED = 'application/vnd.com.service.FitnessActivityFeed+json'

export async function startLyingAccount(bugs: Bugs = {}): Promise<LyingAccount> {
  const backend = await startReferenceServer()
  let creates = 0
  let latestCreated: string | undefined
  const forward = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> => {
    const response = await request(`${backend.url}${path}`, {
      method: method as 'GET',
      headers,
      ...(body !== undefined && body !== '' ? { body } : {}),
    })
    const text = await response.body.text()
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers))
      if (typeof value === 'string' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive')
        out[name] = value
    return { status: response.statusCode, headers: out, body: text }
  }
  const front = await startLoopbackServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    let text = ''
    incoming.on('data', (chunk: Buffer) => (text += chunk.toString()))
    incoming.on('end', () => {
      void (async () => {
        const method = incoming.method ?? 'GET'
        const path = incoming.url ?? '/'
        const pathname = new URL(path, 'http://x').pathname
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(incoming.headers))
          if (typeof value === 'string' && name !== 'host' && name !== 'content-length' && name !== 'connection')
            headers[name] = value
        const send = (answer: { status: number; headers: Record<string, string>; body: string }): void => {
          // A HEAD answer keeps the length of the GET it stands for; any other is measured again (a lie may have changed the body).
          const { 'content-length': length, ...rest } = answer.headers
          outgoing
            .writeHead(
              answer.status,
              method === 'HEAD' && length !== undefined ? { ...rest, 'content-length': length } : rest,
            )
            .end(answer.body)
        }
        if (method === 'DELETE' && /^\/fitnessActivities\/?$/.test(pathname) && bugs.collectionDeleteClears) {
          const feed = await forward('GET', '/fitnessActivities?pageSize=1000', {
            authorization: headers['authorization'] ?? '',
            accept: FEED,
          })
          for (const item of (JSON.parse(feed.body) as { items: { uri: string }[] }).items)
            await forward('DELETE', `/fitnessActivities/${item.uri.split('/').pop()}`, {
              authorization: headers['authorization'] ?? '',
            })
          return void outgoing.writeHead(204).end()
        }
        if (/^\/fitnessActivities\/$/.test(pathname) && bugs.collectionDeleteClears && latestCreated) {
          return send(await forward(method, latestCreated + path.slice(pathname.length), headers, text))
        }
        if (method === 'POST' && pathname === '/fitnessActivities') {
          const index = creates++
          bugs.onCreate?.(index)
          const newest = await forward('GET', '/fitnessActivities?pageSize=1', {
            authorization: headers['authorization'] ?? '',
            accept: FEED,
          })
          const answer = await forward(method, path, headers, text)
          if (answer.status === 201) latestCreated = answer.headers['location']
          const lies =
            typeof bugs.locationNamesNewest === 'function' ? bugs.locationNamesNewest(index) : bugs.locationNamesNewest
          if (answer.status === 201 && lies && newest.status === 200) {
            const uri = (JSON.parse(newest.body) as { items: { uri: string }[] }).items[0]?.uri
            if (uri) answer.headers['location'] = `/fitnessActivities/${uri.split('/').pop()}`
          }
          const emptyId =
            typeof bugs.emptyIdLocation === 'function' ? bugs.emptyIdLocation(index) : bugs.emptyIdLocation
          if (answer.status === 201 && emptyId) answer.headers['location'] = '/fitnessActivities/'
          return send(answer)
        }
        if (method === 'PUT' && pathname === '/profile') {
          const answer = await forward(method, path, headers, text)
          if (
            bugs.profileEditLeaks &&
            headers['authorization'] === `Bearer ${backend.tokens.otherToken}` &&
            text.trim() !== '{}'
          ) {
            await forward(method, path, { ...headers, authorization: `Bearer ${backend.tokens.token}` }, text)
          }
          if (bugs.profileHidesAthleteType && answer.status === 200) {
            const { athlete_type: _hidden, ...shown } = JSON.parse(answer.body) as Record<string, unknown>
            answer.body = JSON.stringify(shown)
          }
          return send(answer)
        }
        send(await forward(method, path, headers, text))
      })().catch((error: unknown) => outgoing.writeHead(502).end(String(error)))
    })
  })
  return {
    url: front.url,
    backend,
    front,
    snapshot: () => snapshotAccounts(backend),
    writes: () =>
      front.requests
        .filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD '))
        .map((line) => line.replace(/\?.*$/, '')),
    close: async () => {
      await front.close()
      await backend.close()
    },
  }
}

/** Every activity of both users (read one by one) and both profiles, straight from the reference server. */
async function snapshotAccounts(backend: RunningReferenceServer): Promise<string> {
  const parts: string[] = []
  for (const token of [backend.tokens.token, backend.tokens.otherToken]) {
    const authorization = `Bearer ${token}`
    const feed = await request(`${backend.url}/fitnessActivities?pageSize=100000`, {
      headers: { authorization, accept: FEED },
    })
    const items = (JSON.parse(await feed.body.text()) as { items: { uri: string }[] }).items
    for (const item of items) {
      const read = await request(`${backend.url}/fitnessActivities/${item.uri.split('/').pop()}`, {
        headers: { authorization },
      })
      parts.push(`${item.uri} ${read.statusCode} ${await read.body.text()}`)
    }
    const profile = await request(`${backend.url}/profile`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/vnd.com.service.Profile+json' },
      body: '{}',
    })
    parts.push(`profile ${await profile.body.text()}`)
  }
  return parts.join('\n')
}
