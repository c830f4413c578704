import { describe, expect, it } from 'vitest'
import { restrictedImports } from '../../helpers/restricted-imports.js'

// The proxy's rooms (eslint.config.js, PROXY_ROOMS): each refuses the sibling rooms it has no business with, at
// every depth, and the forwarding library stays in forward/forwarder.ts.

describe('proxy rooms', () => {
  it.each([
    ['proxy/forward/proxy-server.ts', '../reading/read-exchanges.js', 'proxy/forward passes traffic on'],
    ['proxy/recording/recorder.ts', '../mock/mock-server.js', 'proxy/recording writes exchanges down'],
    ['proxy/reading/har-file.ts', '../forward/forwarder.js', 'proxy/reading reads a recording'],
    ['proxy/analyze/rules/deep-rule.ts', '../../recording/exchange-log.js', 'proxy/analyze judges exchange views'],
    ['proxy/scaffold/build-step.ts', '../mock/mock-server.js', 'proxy/scaffold writes scenarios'],
    ['proxy/mock/mock-server.ts', '../scaffold/build-step.js', 'proxy/mock answers from a recording'],
    ['proxy/recording/recorder.ts', 'undici', 'only proxy/forward/forwarder.ts knows the forwarding library'],
    ['proxy/forward/forwarder.ts', '../../src/execute/run-plan.js', 'proxy/ uses src/model'],
    ['proxy/recording/recording-problems.ts', '../../src/report/text/text-style.js', 'proxy/ uses src/model'],
  ])('refuses %s importing %s', async (file, specifier, message) => {
    expect((await restrictedImports(file, specifier)).join('\n')).toContain(message)
  })

  it.each([
    ['proxy/forward/forwarder.ts', 'undici'],
    ['proxy/forward/proxy-server.ts', '../recording/exchange-pipeline.js'],
    ['proxy/recording/process-exchange.ts', '../analyze/index.js'],
    ['proxy/commands/mock-command.ts', '../mock/mock-server.js'],
    ['proxy/recording/recording-problems.ts', '../../src/report/text/format-diagnostic.js'],
  ])('lets %s import %s', async (file, specifier) => {
    expect(await restrictedImports(file, specifier)).toEqual([])
  })
})
