import { describe, expect, it } from 'vitest'
import { SecretScrubber } from '../../../../proxy/recording/redaction.js'
import { PATH_POINT_PERSONAL_FIELDS, PROFILE_PERSONAL_FIELDS } from '../../../../src/model/personal-data-fields.js'

const TOKEN = 'abcDEF123-secret.token'

function learnt(options: ConstructorParameters<typeof SecretScrubber>[0] = {}): SecretScrubber {
  const redactor = new SecretScrubber({ key: 'fixed-test-key', ...options })
  redactor.learn([
    ['Authorization', `Bearer ${TOKEN}`],
    ['Cookie', 'session=cookie-value-1; theme=dark-mode'],
  ])
  return redactor
}

describe('SecretScrubber', () => {
  it.each([
    { name: 'authorization', value: `Bearer ${TOKEN}`, expected: /^Bearer \[redacted tok_[0-9a-f]{12}\]$/ },
    { name: 'Authorization', value: TOKEN, expected: /^\[redacted tok_[0-9a-f]{12}\]$/ },
    {
      name: 'cookie',
      value: 'session=cookie-value-1; theme=dark-mode',
      expected: /^session=\[redacted ck_[0-9a-f]{12}\]; theme=\[redacted ck_[0-9a-f]{12}\]$/,
    },
    {
      name: 'set-cookie',
      value: 'session=cookie-value-1; Path=/; HttpOnly',
      expected: /^session=\[redacted ck_[0-9a-f]{12}\]; Path=\/; HttpOnly$/,
    },
    { name: 'x-echo', value: `you sent ${TOKEN}`, expected: /^you sent \[redacted tok_[0-9a-f]{12}\]$/ },
    { name: 'accept', value: 'application/json', expected: /^application\/json$/ },
  ])('redacts $name: $value', ({ name, value, expected }) => {
    expect(learnt().redactHeader(name, value)).toMatch(expected)
  })

  it('names a token by a keyed hash: same key, same id; other key, other id; never the token', () => {
    const a = new SecretScrubber({ key: 'k1' })
    const b = new SecretScrubber({ key: 'k1' })
    const c = new SecretScrubber({ key: 'k2' })
    const id = a.learn([['authorization', `Bearer ${TOKEN}`]])
    expect(id).toBe(b.learn([['authorization', `Bearer ${TOKEN}`]]))
    expect(id).not.toBe(c.learn([['authorization', `Bearer ${TOKEN}`]]))
    expect(id).not.toContain(TOKEN.slice(0, 6))
    expect(new SecretScrubber().learn([['authorization', `Bearer ${TOKEN}`]])).not.toBe(id)
  })

  it('replaces a known secret wherever it appears: text, URL-encoded, bytes, JSON-escaped', () => {
    const redactor = learnt()
    expect(redactor.scrub(`{"notes":"${TOKEN}"}`)).not.toContain(TOKEN)
    expect(redactor.scrub(`/x?t=${encodeURIComponent('cookie-value-1')}`)).not.toContain('cookie-value-1')
    expect(redactor.scrubBytes(Buffer.from(`\u0000\u0001${TOKEN}\u0002`)).includes(Buffer.from(TOKEN))).toBe(false)
    const slashy = new SecretScrubber()
    slashy.learn([['authorization', 'Bearer a/b"c\\d-long']])
    expect(slashy.scrubLine(JSON.stringify({ v: 'a/b"c\\d-long' }))).not.toContain('a/b\\"c\\\\d-long')
  })

  it('scrubs a text seen before again once a new secret is learnt (scrubbed texts are kept only while the secrets stay the same)', () => {
    const redactor = new SecretScrubber({ key: 'fixed-test-key' })
    const text = `{"notes":"${TOKEN}"}`
    expect(redactor.scrub(text)).toBe(text)
    expect(redactor.scrub(text)).toBe(text)
    redactor.learn([['Authorization', `Bearer ${TOKEN}`]])
    expect(redactor.scrub(text)).not.toContain(TOKEN)
    expect(redactor.scrub(`{"notes":"${TOKEN}"}`)).not.toContain(TOKEN)
  })

  it('hands its key and what it learnt to another thread: the copy names and replaces alike', () => {
    const original = learnt()
    original.learnFromBody({ access_token: 'issued-in-a-body-42' })
    const copy = SecretScrubber.fromSettings(structuredClone(original.settings()))
    expect(copy.idOf(TOKEN)).toBe(original.idOf(TOKEN))
    expect(copy.scrub(`${TOKEN} issued-in-a-body-42 cookie-value-1`)).toBe(
      original.scrub(`${TOKEN} issued-in-a-body-42 cookie-value-1`),
    )
    expect(copy.scrub('issued-in-a-body-42')).not.toContain('issued-in-a-body-42')
    expect(copy.isRedactedHeader('x-session-secret')).toBe(false)
    expect(
      SecretScrubber.fromSettings(new SecretScrubber({ headers: ['X-Session-Secret'] }).settings()).isRedactedHeader(
        'x-session-secret',
      ),
    ).toBe(true)
  })

  it.each([
    { title: 'a token response', text: '{"access_token":"body-token-123456"}' },
    { title: 'a field name in capitals', text: '{"data":{"ACCESS_TOKEN":"body-token-123456"}}' },
    { title: 'a field name written with an escape', text: '{"access\\u005ftoken":"body-token-123456"}' },
  ])('learns a token field of a JSON body: $title', ({ text }) => {
    const redactor = new SecretScrubber()
    redactor.learnFromBody(JSON.parse(text), text)
    expect(redactor.scrub('body-token-123456')).toMatch(/^\[redacted tok_/)
  })

  it('learns an access_token query parameter (RFC 6750 §2.3)', () => {
    const redactor = new SecretScrubber()
    redactor.learn([], new URL('http://x/user?access_token=query-token-123'))
    expect(redactor.scrub('http://x/user?access_token=query-token-123')).not.toContain('query-token-123')
  })

  it('does not search for very short secrets elsewhere (they would shred the recording)', () => {
    const redactor = new SecretScrubber()
    redactor.learn([['authorization', 'Bearer ab']])
    expect(redactor.redactHeader('authorization', 'Bearer ab')).toMatch(/^Bearer \[redacted tok_/)
    expect(redactor.scrub('about')).toBe('about')
  })
})

describe('body paths', () => {
  it('replaces values with ones of the same type and lists the pointers', () => {
    const redactor = new SecretScrubber({ bodyPaths: ['path[*].latitude', 'notes', 'missing.field'] })
    const body = {
      notes: 'hi',
      path: [
        { latitude: 45.7, longitude: 4.8 },
        { latitude: 45.8, longitude: 4.9 },
      ],
    }
    const { value, pointers } = redactor.redactBody(body)
    expect(value).toEqual({
      notes: '[redacted]',
      path: [
        { latitude: 0, longitude: 4.8 },
        { latitude: 0, longitude: 4.9 },
      ],
    })
    expect(pointers).toEqual(['/notes', '/path/0/latitude', '/path/1/latitude'])
    expect(body.notes).toBe('hi')
  })

  it('redacts personal data by representation with --redact-personal', () => {
    const redactor = new SecretScrubber({ personal: true })
    expect(redactor.redactBody({ name: 'Alice', athlete_type: 'Runner' }, 'Profile').value).toEqual({
      name: '[redacted]',
      athlete_type: 'Runner',
    })
    expect(redactor.redactBody({ name: 'Alice' }, 'User').pointers).toEqual([])
    expect(
      redactor.redactBody(
        { path: [{ latitude: 1, longitude: 2, altitude: 3, type: 'gps' }] },
        'LiveFitnessActivityUpdate',
      ).value,
    ).toEqual({
      path: [{ latitude: 0, longitude: 0, altitude: 0, type: 'gps' }],
    })
  })

  it('redacts every personal field of src/model, in a profile edit as in a profile', () => {
    const redactor = new SecretScrubber({ personal: true })
    const edit = Object.fromEntries(PROFILE_PERSONAL_FIELDS.map((field) => [field, `https://example.org/${field}`]))
    const { value, pointers } = redactor.redactBody({ ...edit, athlete_type: 'Runner' }, 'ProfileEdit')
    expect(value).toEqual({
      ...Object.fromEntries(PROFILE_PERSONAL_FIELDS.map((field) => [field, '[redacted]'])),
      athlete_type: 'Runner',
    })
    expect(pointers).toEqual(PROFILE_PERSONAL_FIELDS.map((field) => `/${field}`).sort())
    const point = Object.fromEntries(PATH_POINT_PERSONAL_FIELDS.map((field) => [field, 47.3769]))
    expect(redactor.redactBody({ path: [{ ...point, type: 'gps' }] }, 'FitnessActivity').value).toEqual({
      path: [{ ...Object.fromEntries(PATH_POINT_PERSONAL_FIELDS.map((field) => [field, 0])), type: 'gps' }],
    })
  })
})

describe('tokens in bodies', () => {
  it('learns access and refresh tokens from a JSON body before they are ever sent', () => {
    const redactor = new SecretScrubber()
    redactor.learnFromBody({
      token_type: 'bearer',
      access_token: 'fresh-access-token',
      nested: [{ refresh_token: 'fresh-refresh-token' }],
    })
    const text = redactor.scrub('{"access_token":"fresh-access-token","refresh_token":"fresh-refresh-token"}')
    expect(text).not.toContain('fresh-access-token')
    expect(text).not.toContain('fresh-refresh-token')
  })
})

describe('SecretScrubber: secrets a proxy sees beyond the Authorization header (issue 11)', () => {
  it('learns an OAuth form body and redacts its values everywhere, in every encoded form', () => {
    const redactor = new SecretScrubber({ key: 'k' })
    const body = 'grant_type=refresh_token&refresh_token=rt-9f8e7d&client_secret=cs%2Fsl%27sh'
    redactor.learnFromBody(undefined, body)
    const written = redactor.scrubLine(
      `${body} rt-9f8e7d ${Buffer.from('rt-9f8e7d').toString('base64')} cs/sl'sh cs%2fsl%27sh cs\\/sl\\u0027sh`,
    )
    expect(written).not.toMatch(/rt-9f8e7d|cs.{0,3}sl/i)
    expect(written).not.toContain(Buffer.from('rt-9f8e7d').toString('base64'))
  })

  it.each(['token', 'api_key', 'access_token', 'apikey'])(
    'learns a %s query parameter and scrubs it from the console line too',
    (name) => {
      const redactor = new SecretScrubber({ key: 'k' })
      redactor.learn([], new URL(`http://127.0.0.1/x?${name}=query-secret-77&page=2`))
      expect(redactor.scrub(`GET /x?${name}=query-secret-77&page=2`)).toMatch(
        new RegExp(`^GET /x\\?${name}=\\[redacted tok_[0-9a-f]{12}\\]&page=2$`),
      )
    },
  )

  it('redacts a credential query parameter or form field even when it is too short to search for', () => {
    const redactor = new SecretScrubber({ key: 'k' })
    expect(redactor.scrub('/x?token=ab&api_key=c')).toBe('/x?token=[redacted]&api_key=[redacted]')
  })

  it('redacts X-Api-Key by default and scrubs its value elsewhere', () => {
    const redactor = new SecretScrubber({ key: 'k' })
    redactor.learn([['X-Api-Key', 'api-key-value-31']])
    expect(redactor.redactHeader('X-Api-Key', 'api-key-value-31')).toMatch(/^\[redacted hdr_[0-9a-f]{12}\]$/)
    expect(redactor.scrub('echo api-key-value-31')).not.toContain('api-key-value-31')
  })

  it('redacts the Authorization header of a token shorter than four characters', () => {
    const redactor = new SecretScrubber({ key: 'k' })
    redactor.learn([['Authorization', 'Bearer ab']])
    expect(redactor.redactHeader('Authorization', 'Bearer ab')).toMatch(/^Bearer \[redacted tok_[0-9a-f]{12}\]$/)
  })

  it('learns a token field of a JSON body nested 100,000 levels deep without overflowing', () => {
    let body: unknown = { access_token: 'deep-token-1234' }
    for (let i = 0; i < 100_000; i++) body = { a: [body] }
    const redactor = new SecretScrubber({ key: 'k' })
    redactor.learnFromBody(body)
    expect(redactor.scrub('deep-token-1234')).toMatch(/^\[redacted tok_/)
  })
})
