// §4 endpoint 4 and rule 5: POST /fitnessActivities with a NewFitnessActivity (§2.4) → 201, no
// body, Location with the relative URI of the new activity.
import type { Call } from '../call.js'
import { storedNotes, storedPath } from '../faults/fuzz-mutants.js'
import { pathClimb, pathDistance, pathDuration } from '../store/geo.js'
import { createdNotes, createdPath, createdStart } from '../faults/real-client-faults.js'
import type { Activity } from '../store/model.js'
import type { ActivityDraft } from '../data/seed.js'
import { createRacingForTheId } from '../faults/concurrency-faults.js'
import { activityBody, activityUri } from '../representations/representations.js'
import { emptyReply, jsonReply, type Reply } from '../http/reply.js'
import { readJsonBody } from '../http/request-body.js'
import { BodyProblem, parseNewActivity, type NewActivityInput } from '../representations/validation.js'

const createdActivitySource = 'fitconform reference server'

export function createActivity(call: Call): Reply | Promise<Reply> {
  const { faults } = call.server
  // Parsing throws before anything is stored, so a rejected create records nothing.
  const input =
    faults.is('bad-body-creates-activity') || faults.is('bad-body-refused-but-recorded')
      ? parseOrRecordAnyway(call)
      : parseNewActivity(readJsonBody(call, 'NewFitnessActivity'))
  if (faults.is('create-id-race'))
    return createRacingForTheId(call.server.store, draftOf(call, input)).then((activity) => answer(call, activity))
  return answer(call, record(call, input))
}

function answer(call: Call, activity: Activity): Reply {
  const { faults, basePath } = call.server
  const uri = activityUri(activity.id)
  if (faults.is('create-with-body'))
    return jsonReply(
      call.server.behaviour,
      'FitnessActivity',
      activityBody(activity, call.server),
      { Location: uri },
      201,
    )
  if (faults.is('location-missing')) return emptyReply(201)
  return emptyReply(faults.is('create-answers-200') ? 200 : 201, {
    Location: faults.is('location-absolute') ? `${call.origin}${basePath}${uri}` : uri,
  })
}

function record(call: Call, input: NewActivityInput): Activity {
  return call.server.store.create(draftOf(call, input))
}

function draftOf(call: Call, input: NewActivityInput): Omit<ActivityDraft, 'modifiedAt'> {
  const { faults } = call.server
  return {
    owner: call.grant.user,
    type: input.type,
    equipment: input.equipment ?? 'None',
    startTime: faults.is('create-start-time-shifted')
      ? input.startTime + 3_600_000
      : createdStart(input.startTime, faults),
    // §2.4 has no totals, so they come from the route; a live activity grows them (activity-live-update.ts).
    totalDistance: pathDistance(input.path),
    duration: pathDuration(input.path),
    totalClimb: pathClimb(input.path),
    distance: [],
    heartRate: [],
    calories: [],
    path: storedPath(createdPath(input.path, faults), faults),
    ...(input.notes === undefined || faults.is('create-drops-notes')
      ? {}
      : { notes: storedNotes(createdNotes(input.notes, faults), faults)! }),
    source: createdActivitySource,
    entryMode: 'API',
  }
}

/**
 * The two "garbage from a bad body" mutants, both about a body that is not JSON: it becomes a
 * placeholder activity (bad-body-creates-activity); or, cut off after a complete field, it is
 * refused, but what was read of it is recorded first (bad-body-refused-but-recorded).
 */
function parseOrRecordAnyway(call: Call): NewActivityInput {
  const { faults, now } = call.server
  let json: unknown
  try {
    json = readJsonBody(call, 'NewFitnessActivity')
  } catch (error) {
    if (!(error instanceof BodyProblem)) throw error
    if (faults.is('bad-body-refused-but-recorded')) {
      const salvaged = closeCutOffObject(call.body?.toString('utf8') ?? '')
      if (salvaged !== undefined) record(call, parseNewActivity(salvaged))
      throw error
    }
    if (!faults.is('bad-body-creates-activity')) throw error
    return {
      type: 'Running',
      startTime: Math.floor(now() / 1000) * 1000,
      path: [],
      notes: call.body?.toString('utf8') ?? '',
    }
  }
  return parseNewActivity(json)
}

/** A JSON object cut off after a complete field (`{"a": 1, "b": 2,`), closed; undefined for anything else. */
function closeCutOffObject(text: string): unknown {
  try {
    const closed = JSON.parse(`${text.trimEnd().replace(/,$/, '')}}`) as unknown
    return typeof closed === 'object' && closed !== null && !Array.isArray(closed) ? closed : undefined
  } catch {
    return undefined
  }
}
