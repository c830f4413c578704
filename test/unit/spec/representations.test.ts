import { describe, expect, it } from 'vitest'
import {
  isRepresentationName,
  mediaTypeOf,
  REPRESENTATION_NAMES,
  schemaIdOf,
} from '../../../src/spec/representations.js'

describe('representations', () => {
  it.each([
    ['User', 'application/vnd.com.service.User+json', 'user.schema.json'],
    [
      'FitnessActivityFeed',
      'application/vnd.com.service.FitnessActivityFeed+json',
      'fitness-activity-feed.schema.json',
    ],
    ['FitnessActivity', 'application/vnd.com.service.FitnessActivity+json', 'fitness-activity.schema.json'],
    ['Profile', 'application/vnd.com.service.Profile+json', 'profile.schema.json'],
    ['ErrorMessage', 'application/vnd.com.service.ErrorMessage+json', 'error-message.schema.json'],
    ['NewFitnessActivity', 'application/vnd.com.service.NewFitnessActivity+json', 'new-fitness-activity.schema.json'],
    [
      'LiveFitnessActivityUpdate',
      'application/vnd.com.service.LiveFitnessActivityUpdate+json',
      'live-fitness-activity-update.schema.json',
    ],
    ['FitnessActivityEdit', 'application/vnd.com.service.FitnessActivity+json', 'fitness-activity-edit.schema.json'],
    ['ProfileEdit', 'application/vnd.com.service.Profile+json', 'profile-edit.schema.json'],
  ] as const)('%s travels as %s and is described by %s', (name, mediaType, file) => {
    expect(isRepresentationName(name)).toBe(true)
    expect(mediaTypeOf(name)).toBe(mediaType)
    expect(schemaIdOf(name)).toBe(`https://fitconform.dev/schemas/api/${file}`)
  })

  it('lists every name once', () => {
    expect(REPRESENTATION_NAMES).toHaveLength(9)
  })

  it.each(['user', 'Activity', 'toString', '__proto__', '', 7, undefined])(
    'does not take %j for a representation name',
    (value) => {
      expect(isRepresentationName(value)).toBe(false)
    },
  )
})
