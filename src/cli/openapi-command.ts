import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { stringify } from 'yaml'
import { loadRules } from '../load/load-rules.js'
import { buildOpenApi } from '../openapi/build-openapi.js'
import { packageRoot, packageVersion } from '../shared/package-root.js'
import { formatDiagnostic } from '../report/text/format-diagnostic.js'
import type { Screen } from '../model/reporter.js'
import { EXIT } from '../shared/exit-codes.js'
import { processScreen } from '../api/screen.js'

export interface OpenApiFlags {
  /** A file to write (`.yaml`/`.yml` → YAML, anything else JSON); absent or `-` → stdout. */
  output?: string
}

/** `fitconform openapi`: the OpenAPI 3.1 document of the interface, from the package's rules and schemas. */
export async function openApiCommand(flags: OpenApiFlags, screen: Screen = processScreen()): Promise<number> {
  const { rules, diagnostics } = await loadRules()
  if (diagnostics.length > 0) {
    for (const diagnostic of diagnostics) screen.err(formatDiagnostic(diagnostic, { colors: screen.colors }) + '\n')
    return EXIT.usage
  }
  const document = buildOpenApi({ rules, schemasDir: join(packageRoot(), 'schemas'), version: packageVersion() })
  const toStdout = flags.output === undefined || flags.output === '-'
  const text =
    !toStdout && /\.ya?ml$/i.test(flags.output!)
      ? stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })
      : JSON.stringify(document, null, 2) + '\n'
  if (toStdout) {
    screen.out(text)
    return EXIT.ok
  }
  const file = resolve(flags.output!)
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text)
  } catch (error) {
    screen.err(
      formatDiagnostic(
        { code: 'E_USAGE', kind: 'load', message: `cannot write ${flags.output}: ${(error as Error).message}` },
        { colors: screen.colors },
      ) + '\n',
    )
    return EXIT.usage
  }
  screen.err(`OpenAPI 3.1 document written to ${flags.output}\n`)
  return EXIT.ok
}
