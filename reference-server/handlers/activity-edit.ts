// §4 endpoint 7 and rule 7: PUT /fitnessActivities/<id> with only the fields to change → 200, the
// whole updated FitnessActivity, with Last-Modified.
import type { Call } from '../call.js'
import { lastModifiedHeader } from '../http/conditional.js'
import { overrideShown } from '../faults/fault-state.js'
import type { Activity } from '../store/model.js'
import { activityBody } from '../representations/representations.js'
import { jsonReply, textReply, type Reply } from '../http/reply.js'
import { readJsonBody } from '../http/request-body.js'
import { parseActivityEdit, type ActivityChanges } from '../representations/validation.js'
import { editCrashes, editedNotes } from '../faults/real-client-faults.js'
import { findOwnActivity } from './find-activity.js'
import { STORAGE_MS, writeOverStaleCopy } from '../faults/concurrency-faults.js'

/** Editable: notes (the only one §4 rule 7 names); other-choices also type, equipment, total_climb. */
export function editActivity(call: Call): Reply | Promise<Reply> {
  if (call.server.faults.is('edit-overwrites-live-update'))
    return writeOverStaleCopy(call, findOwnActivity(call), 2 * STORAGE_MS, () => applyEdit(call))
  return applyEdit(call)
}

function applyEdit(call: Call): Reply {
  const { store, behaviour, faults } = call.server
  const activity = findOwnActivity(call)
  const json = readJsonBody(call, 'FitnessActivity')
  const changes = parseActivityEdit(json, behaviour.editableActivityFields)
  const sent = json as Record<string, unknown>
  if (faults.is('edit-refuses-non-editable') && (sent.uri !== undefined || sent.userID !== undefined)) {
    return textReply(400, 'uri and userID cannot be edited.')
  }
  if (faults.is('edit-refuses-full-representation') && sent.comments !== undefined)
    return textReply(400, 'comments cannot be edited.')
  if (faults.is('edit-notes-ignored')) delete changes.notes
  if (editCrashes(changes.notes, faults)) return textReply(500, 'Internal error: notes must not be empty.')
  if (changes.notes !== undefined) changes.notes = editedNotes(changes.notes, activity.notes, faults)
  const before = activityBody(activity, call.server)
  // edit-not-persisted: the changes land on a copy, which answers, while the stored record stays as it was.
  const target: Activity = faults.is('edit-not-persisted') ? { ...activity } : activity
  applyChanges(target, changes)
  if (faults.is('edit-applies-uri') && sent.uri !== undefined) overrideShown(activity, { uri: sent.uri })
  if (faults.is('edit-applies-user-id') && sent.userID !== undefined) overrideShown(activity, { userID: sent.userID })
  // Only a value other than the one shown: sending back what was read changes nothing on these mutants.
  const differs = (field: string): boolean => sent[field] !== undefined && sent[field] !== before[field]
  if (faults.is('edit-applies-links')) {
    if (differs('previous')) overrideShown(activity, { previous: sent.previous })
    if (differs('comments')) overrideShown(activity, { comments: sent.comments })
  }
  if (faults.is('edit-applies-provenance')) {
    if (differs('source') && typeof sent.source === 'string') activity.source = sent.source
    if (differs('entry_mode') && typeof sent.entry_mode === 'string')
      activity.entryMode = sent.entry_mode as Activity['entryMode']
  }
  // Only an applied value is a change; a body of ignored fields leaves Last-Modified alone.
  if (Object.keys(changes).length > 0 && !faults.is('last-modified-not-advancing')) store.touch(target)
  const body = faults.is('edit-partial-response')
    ? { ...changes }
    : faults.is('edit-response-stale')
      ? before
      : activityBody(target, call.server)
  const reply = jsonReply(
    behaviour,
    'FitnessActivity',
    body,
    lastModifiedHeader(target.modifiedAt),
    faults.is('edit-answers-201') ? 201 : 200,
  )
  if (faults.is('no-last-modified-on-edit')) delete reply.headers['Last-Modified']
  if (faults.is('last-modified-iso-on-edit')) reply.headers['Last-Modified'] = new Date(target.modifiedAt).toISOString()
  return reply
}

function applyChanges(activity: Activity, changes: ActivityChanges): void {
  if (changes.notes !== undefined) activity.notes = changes.notes
  if (changes.type !== undefined) activity.type = changes.type
  if (changes.equipment !== undefined) activity.equipment = changes.equipment
  if (changes.total_climb !== undefined) activity.totalClimb = changes.total_climb
}
