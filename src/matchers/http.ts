import { isRepresentationName, mediaTypeOfNameOrType } from '../spec/representations.js'
import { sameMediaType } from '../validation/media-type.js'
import { isAbsoluteHttpUrl, isRelativeUri } from '../validation/time-formats.js'
import { expectsTrue, isTemplate, type MatcherDefinition } from './matcher-definition.js'

export const relativeUri: MatcherDefinition = {
  name: 'relativeUri',
  checkExpected: expectsTrue,
  test: (actual) => typeof actual === 'string' && isRelativeUri(actual),
  describe: () => 'a relative URI (a path such as "/profile", no scheme or host)',
}

export const absoluteUrl: MatcherDefinition = {
  name: 'absoluteUrl',
  checkExpected: expectsTrue,
  test: (actual) => typeof actual === 'string' && isAbsoluteHttpUrl(actual),
  describe: () => 'an absolute http(s) URL',
}

export const mediaType: MatcherDefinition = {
  name: 'mediaType',
  checkExpected: (expected) =>
    isTemplate(expected) || (typeof expected === 'string' && (isRepresentationName(expected) || expected.includes('/')))
      ? undefined
      : 'expects a representation name (User, FitnessActivity, …) or a media type such as text/plain',
  test: (actual, expected) =>
    typeof actual === 'string' && sameMediaType(actual, mediaTypeOfNameOrType(expected as string)),
  describe: (expected) =>
    `the media type ${mediaTypeOfNameOrType(expected as string)} (parameters such as charset allowed)`,
}

const CLASS = /^[1-5]xx$/

function inClass(actual: unknown, expected: unknown): boolean {
  return typeof actual === 'number' && typeof expected === 'string' && Math.floor(actual / 100) === Number(expected[0])
}

export const statusClass: MatcherDefinition = {
  name: 'statusClass',
  checkExpected: (expected) =>
    typeof expected === 'string' && CLASS.test(expected) ? undefined : 'expects 1xx, 2xx, 3xx, 4xx or 5xx',
  test: inClass,
  describe: (expected) => `a ${String(expected)} status`,
}

export const notStatusClass: MatcherDefinition = {
  name: 'notStatusClass',
  checkExpected: statusClass.checkExpected,
  test: (actual, expected) => typeof actual === 'number' && !inClass(actual, expected),
  describe: (expected) => `a status other than ${String(expected)}`,
}
