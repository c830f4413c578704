import type { IncomingMessage, ServerResponse } from 'node:http'
import { answerUserEntryPoint, startLoopbackServer, type LoopbackServer } from '../../helpers/loopback-server.js'

/** How the account server lies (each one a bug seen in the wild, issue 11). */
export interface Lies {
  /** What Location a create answers with, given the new id. */
  readonly location?: (id: number) => string
  /** A DELETE answers 204 but keeps the activity. */
  readonly keepsDeleted?: boolean
  /** Stored activities lose their notes. */
  readonly dropsNotes?: boolean
  /** Fields added to every activity read (e.g. a token echoed back in some encoding). */
  readonly readExtra?: Record<string, unknown>
}

export interface HostileAccount extends LoopbackServer {
  /** id → stored activity; id 1 is the user's own, created before the run. */
  readonly activities: Map<number, Record<string, unknown>>
  /** Requests that change something: "METHOD /path". */
  writes(): string[]
}

export const USERS_ACTIVITY = {
  type: 'Running',
  start_time: 'Sat, 1 Mar 1980 07:00:00',
  notes: 'my own morning run',
  uri: '/fitnessActivities/1',
}

/** An account server on 127.0.0.1 holding one activity of the user's, that lies as told. */
export async function startHostileAccount(lies: Lies = {}): Promise<HostileAccount> {
  const activities = new Map<number, Record<string, unknown>>([[1, { ...USERS_ACTIVITY }]])
  let nextId = 2
  const server = await startLoopbackServer((request: IncomingMessage, response: ServerResponse) => {
    if (answerUserEntryPoint(request, response)) return
    let text = ''
    request.on('data', (chunk: Buffer) => (text += chunk.toString()))
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname
      const id = Number(/^\/fitnessActivities\/(\d+)$/.exec(path)?.[1] ?? NaN)
      if (request.method === 'POST' && path === '/fitnessActivities') {
        const created = nextId++
        const body = JSON.parse(text) as Record<string, unknown>
        if (lies.dropsNotes) delete body['notes']
        activities.set(created, { ...body, uri: `/fitnessActivities/${created}` })
        return void response
          .writeHead(201, { location: lies.location?.(created) ?? `/fitnessActivities/${created}` })
          .end()
      }
      if (request.method === 'GET' && path === '/fitnessActivities') {
        const items = [...activities.values()].map((activity) => ({
          uri: activity['uri'],
          type: activity['type'],
          start_time: activity['start_time'],
        }))
        return void json(response, 200, { size: items.length, items })
      }
      const activity = activities.get(id)
      if (!activity) return void response.writeHead(404).end()
      if (request.method === 'GET') return void json(response, 200, { ...activity, ...lies.readExtra })
      if (request.method === 'DELETE') {
        if (!lies.keepsDeleted) activities.delete(id)
        return void response.writeHead(204).end()
      }
      if (request.method === 'PUT') {
        Object.assign(activity, JSON.parse(text || '{}') as object)
        return void json(response, 200, activity)
      }
      response.writeHead(405).end()
    })
  })
  return {
    ...server,
    activities,
    writes: () =>
      server.requests
        .filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD '))
        .map((line) => line.replace(/\?.*$/, '')),
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}
