// The proxy's settings are one plain object built from the command line: it crosses to the
// recording thread unchanged, and every flag of `fitconform proxy` lands in it. A new flag that
// the settings do not carry fails here.
import { describe, expect, it } from 'vitest'
import type { Option } from 'commander'
import { createProgram } from '../../../src/cli/program.js'
import type { ProxyCommandOptions } from '../../../proxy/commands/proxy-command.js'
import { proxySettings, type ProxySettings } from '../../../proxy/forward/proxy-settings.js'
import {
  DEFAULT_HOST,
  DEFAULT_RECORDED_BODY_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
} from '../../../proxy/forward/proxy-defaults.js'

const BASE = ['--target', 'http://127.0.0.1:9/api']

/** What a flag's value is when its text is not a number (flags that take a number get `7`). */
const SAMPLE_TEXT: Record<string, string> = {
  target: 'http://other.example:8080/v2',
  host: '[::1]',
  record: 'session.ndjson',
  tlsCert: 'cert.pem',
  tlsKey: 'key.pem',
  redact: 'path[*].latitude',
  redactHeader: 'x-session',
}

function proxyCommandOf(program = createProgram()) {
  return program.commands.find((command) => command.name() === 'proxy')!
}

/** `fitconform proxy <args>` as commander parses it, made into the settings. */
async function settingsOf(args: readonly string[]): Promise<ProxySettings> {
  const program = createProgram().configureOutput({ writeErr: () => undefined })
  let flags: ProxyCommandOptions | undefined
  proxyCommandOf(program).action((parsed: ProxyCommandOptions) => {
    flags = parsed
  })
  await program.parseAsync(['proxy', ...args], { from: 'user' })
  return proxySettings(flags!)
}

function argsOf(option: Option): string[] {
  const flag = option.long!
  if (!option.required && !option.optional) return [flag]
  return [flag, SAMPLE_TEXT[option.attributeName()] ?? '7']
}

/** The dotted paths of the leaves that differ between two settings objects. */
function changedFields(before: unknown, after: unknown, path = ''): string[] {
  if (typeof before === 'object' && before !== null && typeof after === 'object' && after !== null) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)])
    return [...keys].flatMap((key) =>
      changedFields(
        (before as Record<string, unknown>)[key],
        (after as Record<string, unknown>)[key],
        path === '' ? key : `${path}.${key}`,
      ),
    )
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [path]
}

describe('fitconform proxy and its settings', () => {
  const options = proxyCommandOf().options

  it('reads the flags from commander', () => {
    expect(options.length).toBeGreaterThan(12)
  })

  for (const option of options) {
    it(`maps ${option.long} to a field of the settings`, async () => {
      // A flag given twice takes its last value: `--target` too.
      const given = await settingsOf([...BASE, ...argsOf(option)])
      expect(changedFields(await settingsOf(BASE), given)).not.toEqual([])
    })
  }

  it('survives structuredClone unchanged when every flag is given', async () => {
    const args = [...BASE, ...options.filter((option) => option.long !== '--target').flatMap(argsOf)]
    const settings = await settingsOf(args)
    expect(structuredClone(settings)).toStrictEqual(settings)
    expect(settings).toMatchObject({
      target: 'http://127.0.0.1:9/api',
      listen: { host: '::1', port: 7, tlsCert: 'cert.pem', tlsKey: 'key.pem' },
      forward: { timeoutMs: 7, insecure: true },
      recording: { file: 'session.ndjson', maxBytes: 7, maxBodyBytes: 7, strict: true, quiet: true },
      redaction: { bodyPaths: ['path[*].latitude'], headers: ['x-session'], personal: true },
    })
  })

  it('fills in the defaults when only the target is given', async () => {
    const settings = await settingsOf(BASE)
    expect(structuredClone(settings)).toStrictEqual(settings)
    expect(settings).toMatchObject({
      listen: { host: DEFAULT_HOST, port: 0 },
      forward: { timeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS, insecure: false },
      recording: { maxBodyBytes: DEFAULT_RECORDED_BODY_BYTES, strict: false, quiet: false },
      redaction: { bodyPaths: [], headers: [], personal: false },
    })
  })
})
