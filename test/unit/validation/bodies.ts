// Complete, valid bodies of every representation (§2, §7), for the tests to take apart.
import type { RepresentationName } from '../../../src/spec/representations.js'

const teammates = Object.fromEntries(
  [
    'strength_training_activities',
    'background_activities',
    'sleep',
    'nutrition',
    'weight',
    'general_measurements',
    'diabetes',
  ].map((name) => [`nearest_teammate_${name}`, []]),
)

export const feedItem = {
  type: 'Running',
  start_time: 'Tue, 1 Mar 2011 07:00:00',
  total_distance: 5000,
  duration: 1800.5,
  source: 'RunKeeper',
  entry_mode: 'API',
  has_map: 'true',
  uri: '/fitnessActivities/17',
}

export const pathPoint = { timestamp: 0, altitude: 12.5, longitude: -70.95, latitude: 42.36, type: 'start' }

export const completeBodies: Readonly<Record<RepresentationName, Record<string, unknown>>> = {
  User: {
    userID: 1234567890,
    profile: '/profile',
    settings: '/settings',
    fitness_activities: '/fitnessActivities',
    strength_training_activities: '/strengthTrainingActivities',
    background_activities: '/backgroundActivities',
    sleep: '/sleep',
    nutrition: '/nutrition',
    weight: '/weight',
    general_measurements: '/generalMeasurements',
    diabetes: '/diabetes',
    records: '/records',
    team: '/team',
  },
  FitnessActivityFeed: {
    size: 40,
    items: [
      feedItem,
      { ...feedItem, start_time: 'Wednesday, 02 March 2011 18:30:00', has_map: 'false', uri: '/fitnessActivities/18' },
    ],
    previous: 'https://api.example/fitnessActivities?page=1&pageSize=2',
  },
  FitnessActivity: {
    uri: '/fitnessActivities/17',
    userID: 1234567890,
    type: 'Running',
    equipment: 'None',
    start_time: 'Tue, 1 Mar 2011 07:00:00',
    total_distance: 5000,
    distance: [{ timestamp: 0, distance: 0 }],
    duration: 1800,
    heart_rate: [],
    calories: [],
    total_climb: 10.5,
    path: [pathPoint, { ...pathPoint, timestamp: 1800, type: 'end' }],
    notes: 'Felt good',
    comments: '/fitnessActivities/17/comments',
    source: 'RunKeeper',
    entry_mode: 'Web',
    has_map: 'true',
    previous: '/fitnessActivities/16',
    ...teammates,
  },
  Profile: {
    name: 'Ada Runner',
    location: 'Boston, MA',
    athlete_type: 'Runner',
    gender: 'F',
    birthday: 'Sat, 1 Jan 1983 00:00:00',
    elite: false,
    profile: 'https://example.com/user/ada',
    small_picture: 'https://example.com/ada/small.jpg',
    normal_picture: 'https://example.com/ada/normal.jpg',
    medium_picture: 'https://example.com/ada/medium.jpg',
    large_picture: 'https://example.com/ada/large.jpg',
  },
  ErrorMessage: { reason: 'Revoked', delete_health: false },
  NewFitnessActivity: {
    type: 'Running',
    equipment: 'None',
    start_time: 'Sat, 1 Jan 2011 00:00:00',
    notes: 'Morning run',
    path: [pathPoint, { ...pathPoint, timestamp: 60, type: 'end' }],
    post_to_facebook: false,
    post_to_twitter: true,
  },
  LiveFitnessActivityUpdate: { path: [{ ...pathPoint, timestamp: 30, type: 'gps' }] },
  FitnessActivityEdit: { notes: 'Edited' },
  ProfileEdit: { athlete_type: 'Cyclist' },
}
