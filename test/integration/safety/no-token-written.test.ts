import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { runCommand } from '../../../src/cli/run-command.js'
import type { Screen } from '../../../src/model/reporter.js'
import { answerUserEntryPoint, startLoopbackServer } from '../../helpers/loopback-server.js'
import { startHostileAccount, type HostileAccount } from './hostile-account.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/runner/create-then-read.yaml', import.meta.url))
const TOKEN = "safe'Tok/en+42"
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())

/** Every form in which the token could reach a byte: raw, percent-encoded (both cases, ' as %27), JSON-escaped, base64. */
const FORMS = [
  TOKEN,
  encodeURIComponent(TOKEN),
  encodeURIComponent(TOKEN).replace(/'/g, '%27'),
  lowerHex(encodeURIComponent(TOKEN).replace(/'/g, '%27')),
  [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  Buffer.from(TOKEN).toString('base64'),
  Buffer.from(TOKEN).toString('base64url'),
]

let server: HostileAccount | undefined
let outputDir: string | undefined
afterEach(async () => {
  await server?.close()
  if (outputDir) await rm(outputDir, { recursive: true, force: true })
})

async function everyFile(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true })
  const texts = await Promise.all(
    names.map((name) =>
      readFile(join(dir, name)).then(
        (bytes) => bytes.toString('utf8'),
        () => '',
      ),
    ),
  )
  return texts.join('\n')
}

describe('no token reaches a byte the run writes', () => {
  it('scrubs a token echoed in every encoding, carried in a Location, and named in cleanup messages, from console, reports and ledger', async () => {
    server = await startHostileAccount({
      location: (id) => `/fitnessActivities/${id - 1}?access_token=${encodeURIComponent(TOKEN)}`,
      readExtra: {
        echoed: TOKEN,
        percent: lowerHex(encodeURIComponent(TOKEN).replace(/'/g, '%27')),
        base64: Buffer.from(TOKEN).toString('base64'),
      },
    })
    outputDir = await mkdtemp(join(tmpdir(), 'fitconform-no-token-'))
    let said = ''
    const screen: Screen = {
      out: (t) => void (said += t),
      err: (t) => void (said += t),
      colors: false,
      isTTY: false,
      width: 100,
    }
    const code = await runCommand(
      [FIXTURE],
      { baseUrl: new URL(server.url), token: TOKEN, outputDir, reporter: 'console,json,junit,markdown,html' },
      screen,
    )
    expect(code).toBe(1)
    const written = `${said}\n${await everyFile(outputDir)}`
    expect(written).toContain('not proven ours') // the cleanup message that used to carry the Location verbatim
    expect(written).toContain('REDACTED')
    for (const form of FORMS) expect(written, `the form ${form}`).not.toContain(form)
    // Nor any escaping we did not list (an HTML entity, mixed-case hex): the token's two ends never meet.
    expect(written).not.toMatch(/safe(?:'|%27|&#0*39;|&#x0*27;|&apos;|\\u0027)tok/i)
    expect(written).not.toMatch(/en(?:\+|%2b|&#0*43;|\\u002b)42/i)
  })

  it('scrubs a token from what the run adds around the step results: a scenario title, a blocked step', async () => {
    // Step results are redacted as each ends; the scenario around them and the steps a failure blocks are not.
    const account = await startLoopbackServer(
      (request, response) => void (answerUserEntryPoint(request, response) || response.writeHead(404).end()),
    )
    try {
      outputDir = await mkdtemp(join(tmpdir(), 'fitconform-no-token-'))
      const suite = join(outputDir, 'named.yaml')
      await writeFile(
        suite,
        [
          'scenarios:',
          '  - id: named-after-the-token',
          `    title: ${JSON.stringify(`reads with ${TOKEN}`)}`,
          '    rules: [USER-READ]',
          '    steps:',
          '      - name: read a page that is not there',
          '        request: { method: GET, url: /missing }',
          '        expect: { status: 200 }',
          `      - name: ${JSON.stringify(`then ${TOKEN}`)}`,
          '        request: { method: GET, url: /user }',
          '        expect: { status: 200 }',
          '',
        ].join('\n'),
      )
      const screen: Screen = { out: () => undefined, err: () => undefined, colors: false, isTTY: false, width: 100 }
      const code = await runCommand(
        [suite],
        { baseUrl: new URL(account.url), token: TOKEN, outputDir, reporter: 'json,junit,markdown,html' },
        screen,
      )
      expect(code).toBe(1)
      const results = await readFile(join(outputDir, 'results.json'), 'utf8')
      expect(results).toContain('"title": "reads with [REDACTED token]"')
      expect(results).toContain('"name": "then [REDACTED token]"')
      const written = (await everyFile(outputDir)).replace(await readFile(suite, 'utf8'), '')
      for (const form of FORMS) expect(written, `the form ${form}`).not.toContain(form)
    } finally {
      await account.close()
    }
  })

  it('refuses a token shorter than four characters (exit 2), since it could not be scrubbed by value', async () => {
    let said = ''
    const screen: Screen = {
      out: (t) => void (said += t),
      err: (t) => void (said += t),
      colors: false,
      isTTY: false,
      width: 100,
    }
    const code = await runCommand([FIXTURE], { baseUrl: new URL('http://127.0.0.1:9'), token: 'abc' }, screen)
    expect(code).toBe(2)
    expect(said).toMatch(/refuses tokens shorter than 4 characters/)
  })
})

describe('credentials in a URL are secrets like tokens', () => {
  it('keeps the userinfo of --base-url out of the console, every report and the ledger', async () => {
    const PASSWORD = 'pa55-w0rd-staging'
    server = await startHostileAccount()
    outputDir = await mkdtemp(join(tmpdir(), 'fitconform-no-token-'))
    let said = ''
    const screen: Screen = {
      out: (t) => void (said += t),
      err: (t) => void (said += t),
      colors: false,
      isTTY: false,
      width: 100,
    }
    const withUserinfo = new URL(server.url)
    withUserinfo.username = 'ci-user'
    withUserinfo.password = PASSWORD
    // A ledger with nothing owed is removed at the end of the run: read it while the run goes on.
    let ledgers = ''
    const dir = outputDir
    const watching = setInterval(() => {
      for (const name of readdirSync(dir))
        if (name.startsWith('ledger-')) ledgers += readFileSync(join(dir, name), 'utf8')
    }, 2)
    try {
      await runCommand(
        [FIXTURE],
        { baseUrl: withUserinfo, token: TOKEN, outputDir, reporter: 'console,json,junit,markdown,html' },
        screen,
      )
    } finally {
      clearInterval(watching)
    }
    const written = `${said}\n${await everyFile(outputDir)}\n${ledgers}`
    expect(written).toContain(new URL(server.url).host) // the target is still named, without its userinfo
    expect(written).not.toContain(PASSWORD)
    expect(written).not.toContain('ci-user')
    expect(ledgers).toContain('"type":"run"')
  })
})
