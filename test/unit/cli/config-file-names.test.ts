// The config files the loader reads are exactly the ones the README names: fitconform.config.ts and
// fitconform.config.yaml. A .js or .mjs beside them is never loaded, so its code never runs.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIG_FILE_NAMES, readConfigFile } from '../../../src/cli/options/config-file.js'
import { makeTempDir } from '../../helpers/temp-dir.js'

describe('config file names', () => {
  it('looks for the two names the README lists, and no other', () => {
    expect(CONFIG_FILE_NAMES).toEqual(['fitconform.config.ts', 'fitconform.config.yaml'])
  })

  it.each(['fitconform.config.js', 'fitconform.config.mjs'])(
    'does not load (or run) a %s found in the working directory',
    (name) => {
      const dir = makeTempDir('fitconform-config-names-')
      const ran = join(dir, 'ran')
      writeFileSync(
        join(dir, name),
        `require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'x'); module.exports = { default: { timeout: 1 } }\n`,
      )
      expect(readConfigFile(undefined, dir)).toBeUndefined()
      expect(existsSync(ran)).toBe(false)
    },
  )

  it('refuses a --config file that is neither .ts nor .yaml, saying what to name it (exit 2)', () => {
    const dir = makeTempDir('fitconform-config-names-')
    writeFileSync(join(dir, 'settings.js'), 'module.exports = {}\n')
    expect(() => readConfigFile('settings.js', dir)).toThrow(
      /the config file settings\.js is neither TypeScript \(\.ts\) nor YAML \(\.yaml\): name it fitconform\.config\.ts or fitconform\.config\.yaml/,
    )
  })
})
