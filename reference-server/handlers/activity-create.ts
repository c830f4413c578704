// §4 endpoint 4 and rule 5: POST /fitnessActivities with a NewFitnessActivity (§2.4) → 201, no
// body, Location with the relative URI of the new activity.
import type { Call } from '../call.js'
import { pathClimb, pathDistance, pathDuration } from '../geo.js'
import { activityUri } from '../representations.js'
import { emptyReply, type Reply } from '../reply.js'
import { readJsonBody } from '../request-body.js'
import { parseNewActivity } from '../validation.js'

export const createdActivitySource = 'fitconform reference server'

export function createActivity(call: Call): Reply {
  const { store, faults, basePath } = call.server
  // Parsing throws before anything is stored, so a rejected create records nothing.
  const input = parseNewActivity(readJsonBody(call, 'NewFitnessActivity'))
  const activity = store.create({
    owner: call.grant.user,
    type: input.type,
    equipment: input.equipment ?? 'None',
    startTime: input.startTime,
    // §2.4 has no totals, so they come from the route; a live activity grows them (activity-live-update.ts).
    totalDistance: pathDistance(input.path),
    duration: pathDuration(input.path),
    totalClimb: pathClimb(input.path),
    distance: [],
    heartRate: [],
    calories: [],
    path: input.path,
    ...(input.notes === undefined ? {} : { notes: input.notes }),
    source: createdActivitySource,
    entryMode: 'API',
  })
  const uri = activityUri(activity.id)
  return emptyReply(201, { Location: faults.is('location-absolute') ? `${call.origin}${basePath}${uri}` : uri })
}
