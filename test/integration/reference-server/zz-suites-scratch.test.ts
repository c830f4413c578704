import { it } from 'vitest'
import { runCommand } from '../../../src/cli/run-command.js'
import { startReferenceServer } from '../../../reference-server/index.js'
it('runs suites', async () => {
  for (const mode of ['has-map-boolean', 'head-with-body', 'location-absolute']) {
    const s = await startReferenceServer({ mutant: mode })
    let out = ''
    const screen = { out: (t: string) => { out += t }, err: (t: string) => { out += t }, colors: false, isTTY: false, width: 160 }
    const code = await runCommand([], { baseUrl: new URL(s.url), token: s.tokens.token, otherToken: s.tokens.otherToken, revokedToken: s.tokens.revokedToken, revokedDeleteToken: s.tokens.revokedDeleteToken, limitedToken: s.tokens.limitedToken, outputDir: '/tmp/fc-scratch-reports', reporter: 'console' }, screen)
    console.log('MODE', mode, 'exit', code, '\n', out)
    await s.close()
  }
}, 120000)
