// The node:http server around dispatch: every request gets a reply, even when a handler throws.
import { createServer, type Server } from 'node:http'
import type { ServerContext } from '../call.js'
import { dispatch } from './dispatch.js'
import { withErrorBody } from './error-body.js'
import { textReply, type Reply } from './reply.js'
import { sendReply } from './send-reply.js'

export type InternalErrorListener = (error: unknown) => void

export function createHttpServer(context: ServerContext, onInternalError: InternalErrorListener): Server {
  return createServer((req, res) => {
    const method = req.method ?? 'GET'
    dispatch(req, context)
      .catch((error: unknown): Reply => {
        // A bug in the reference server, never the client's fault: say so, and tell the owner.
        onInternalError(error)
        return textReply(
          500,
          `Internal error in the fitconform reference server (this is a bug in the server, not in your request): ${error instanceof Error ? error.message : String(error)}`,
        )
      })
      .then((reply) => sendReply(res, withErrorBody(reply, context.behaviour), method, context))
      .catch((error: unknown) => {
        onInternalError(error)
        res.destroy()
      })
  })
}
