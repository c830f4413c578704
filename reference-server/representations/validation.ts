// Request-body checks for §2.4 (new activity), §2.5 (live update), §4 rule 7 (activity edit) and
// §2.6 (profile edit). A failed check throws BodyProblem with a message for the client's
// programmer (§7 rule 5); dispatch.ts turns it into the mode's 400 or 422.
import type { PathPoint } from '../store/model.js'
import type { EditableActivityField, EditableProfileField } from '../modes.js'
import { parseSpecTime } from './spec-time.js'

export class BodyProblem extends Error {}

export interface NewActivityInput {
  type: string
  startTime: number
  equipment?: string
  notes?: string
  path: PathPoint[]
}

export interface ActivityChanges {
  notes?: string
  type?: string
  equipment?: string
  total_climb?: number
}

export type ProfileChanges = Partial<Record<EditableProfileField, string>>

/** §2.4. Fields the table does not list are ignored; post_to_* are accepted and publish nothing. */
export function parseNewActivity(body: unknown): NewActivityInput {
  const object = requireObject(body, 'a new activity')
  const type = object.type
  if (typeof type !== 'string' || type.trim() === '')
    throw new BodyProblem('"type" is required and must be a non-empty string (§2.4)')
  if (typeof object.start_time !== 'string')
    throw new BodyProblem('"start_time" is required and must be a string such as "Tue, 1 Mar 2011 07:00:00" (§2.4)')
  const start = parseSpecTime(object.start_time)
  if (!start.ok) throw new BodyProblem(`"start_time": ${start.problem}`)
  const input: NewActivityInput = { type, startTime: start.time, path: [] }
  const equipment = optionalString(object, 'equipment')
  const notes = optionalString(object, 'notes')
  if (equipment !== undefined) input.equipment = equipment
  if (notes !== undefined) input.notes = notes
  if (object.path !== undefined) input.path = parsePath(object.path)
  for (const [key, value] of Object.entries(object)) {
    if (key.startsWith('post_to_') && typeof value !== 'boolean')
      throw new BodyProblem(`"${key}" must be true or false (§2.4)`)
  }
  return input
}

/** §2.5: `{ "path": [points] }`. */
export function parseLiveUpdate(body: unknown): PathPoint[] {
  const object = requireObject(body, 'a live activity update')
  if (object.path === undefined) throw new BodyProblem('"path" is required: the points to add (§2.5)')
  return parsePath(object.path)
}

/**
 * §4 rule 7: only editable fields are read and checked; everything else, known or not, is ignored
 * even when its value would be invalid ("values for non-editable fields are ignored").
 */
export function parseActivityEdit(body: unknown, editable: readonly EditableActivityField[]): ActivityChanges {
  const object = requireObject(body, 'an activity edit')
  const changes: ActivityChanges = {}
  for (const field of editable) {
    const value = object[field]
    if (value === undefined) continue
    if (field === 'total_climb') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw new BodyProblem('"total_climb" must be a non-negative number')
      changes.total_climb = value
    } else {
      if (typeof value !== 'string') throw new BodyProblem(`"${field}" must be a string`)
      if (field === 'type' && value.trim() === '') throw new BodyProblem('"type" must not be empty')
      changes[field] = value
    }
  }
  return changes
}

/** §4 rule 8 / §2.6: the same rule for the profile; editable fields are strings. */
export function parseProfileEdit(body: unknown, editable: readonly EditableProfileField[]): ProfileChanges {
  const object = requireObject(body, 'a profile edit')
  const changes: ProfileChanges = {}
  for (const field of editable) {
    const value = object[field]
    if (value === undefined) continue
    if (typeof value !== 'string') throw new BodyProblem(`"${field}" must be a string (§2.6)`)
    changes[field] = value
  }
  return changes
}

/** §2.3 path point: numeric timestamp, latitude, longitude, altitude; text type. */
function parsePath(value: unknown): PathPoint[] {
  if (!Array.isArray(value)) throw new BodyProblem('"path" must be an array of path points (§2.3)')
  return value.map((point: unknown, index) => {
    const where = `path[${index}]`
    if (point === null || typeof point !== 'object' || Array.isArray(point))
      throw new BodyProblem(`${where} must be an object`)
    const fields = point as Record<string, unknown>
    const number = (name: string, min: number, max: number): number => {
      const field = fields[name]
      if (typeof field !== 'number' || !Number.isFinite(field))
        throw new BodyProblem(`${where}.${name} is required and must be a number`)
      if (field < min || field > max) throw new BodyProblem(`${where}.${name} must be between ${min} and ${max}`)
      return field
    }
    const parsed: PathPoint = {
      timestamp: number('timestamp', 0, Number.MAX_SAFE_INTEGER),
      latitude: number('latitude', -90, 90),
      longitude: number('longitude', -180, 180),
      altitude: number('altitude', -Number.MAX_VALUE, Number.MAX_VALUE),
      type: '',
    }
    if (typeof fields.type !== 'string' || fields.type === '')
      throw new BodyProblem(`${where}.type is required and must be a string such as "start", "gps" or "end"`)
    parsed.type = fields.type
    return parsed
  })
}

function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new BodyProblem(`the body must be a JSON object (${what})`)
  return body as Record<string, unknown>
}

function optionalString(object: Record<string, unknown>, name: string): string | undefined {
  const value = object[name]
  if (value !== undefined && typeof value !== 'string') throw new BodyProblem(`"${name}" must be a string`)
  return value
}
