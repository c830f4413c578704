// §3 and §4 rule 6 do not show how an activity becomes live: a server that answers the first live
// update with a 4xx (it holds the activity finished) gets the live scenario skipped with the reason,
// not failed; the activity it created is still deleted.
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { answerUserEntryPoint, startServerForTest, type LoopbackServer } from '../../helpers/loopback-server.js'
import { ranResult, runFixture, targetOf } from '../../helpers/run-fixture.js'

const LIVE_SUITE = fileURLToPath(new URL('../../../suites/live/live-update.yaml', import.meta.url))
const ACTIVITY = '/fitnessActivities/1'
const mediaType = (name: string) => `application/vnd.com.service.${name}+json`

/** Creates one activity, serves back what was sent, and refuses every live update with `updateStatus`. */
async function startFinishedActivityServer(updateStatus: number): Promise<LoopbackServer> {
  let created: Record<string, unknown> = {}
  let deleted = false
  return startServerForTest((request, response) => {
    if (answerUserEntryPoint(request, response)) return
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const route = `${request.method} ${request.url}`
      if (route === 'POST /fitnessActivities') {
        created = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
        deleted = false
        response.writeHead(201, { location: ACTIVITY }).end()
      } else if (route === `GET ${ACTIVITY}` && !deleted) {
        const body = JSON.stringify({ ...created, uri: ACTIVITY, userID: 1 })
        response
          .writeHead(200, {
            'content-type': mediaType('FitnessActivity'),
            'last-modified': 'Sun, 01 Mar 1987 07:00:00 GMT',
          })
          .end(body)
      } else if (route === `POST ${ACTIVITY}`) {
        response.writeHead(updateStatus, { 'content-type': 'text/plain' }).end('This activity is finished.\n')
      } else if (route === `DELETE ${ACTIVITY}`) {
        deleted = true
        response.writeHead(204).end()
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not here\n')
      }
    })
  })
}

async function runLiveSuite(updateStatus: number) {
  const server = await startFinishedActivityServer(updateStatus)
  const outcome = await runFixture(LIVE_SUITE, targetOf(server.url, { token: 'live-test-token' }, 'loopback'), {
    concurrency: 1,
    timeoutMs: 2_000,
  })
  return { scenario: ranResult(outcome).scenarios[0]!, requests: server.requests }
}

it('skips the live scenario with the reason when the first update is refused with a 4xx, and deletes what it created', async () => {
  const { scenario, requests } = await runLiveSuite(409)
  expect(scenario.status).toBe('skipped')
  expect(scenario.skipReason).toContain('refused the first live update with a 4xx')
  expect(requests.filter((line) => line.startsWith('POST'))).toEqual(['POST /fitnessActivities', `POST ${ACTIVITY}`])
  expect(requests).toContain(`DELETE ${ACTIVITY}`)
})

it('fails the live scenario when the first update is answered with a 5xx', async () => {
  const { scenario } = await runLiveSuite(500)
  expect(scenario.status).toBe('failed')
})
