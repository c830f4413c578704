import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'

const root = fileURLToPath(new URL('../..', import.meta.url))
let eslint: ESLint | undefined

/** The messages eslint.config.js's import rows give a file at `filePath` that imports `specifier`. */
export async function restrictedImports(filePath: string, specifier: string): Promise<string[]> {
  eslint ??= new ESLint({ cwd: root })
  const [result] = await eslint.lintText(`import { x } from '${specifier}'\nexport const y = x\n`, { filePath })
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message)
}
