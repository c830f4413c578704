/**
 * import() of a module of the user's (a custom reporter). A module of its own because the CLI bundle
 * runs from a code-cached script, where Node 20 cannot run import(): the build keeps this file out of
 * the bundle, as dist/cli/import-module.cjs, which Node's own loader runs (scripts/bundle-cli.mjs).
 */
export function importModule(specifier: string): Promise<unknown> {
  return import(specifier)
}
