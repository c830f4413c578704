import { Command, Option } from 'commander'
import { packageVersion } from '../shared/package-root.js'
import { RUN_DEFAULTS } from '../api/defaults.js'
import { sharedOption, sharedOptions } from './options/shared-options.js'
import { collect, parseDuration, parsePort, parsePositiveInt, parseSeed, parseShard } from './options/option-parsers.js'
import { addProxyCommands } from './proxy-commands.js'
import { addDiffCommand } from './diff-program.js'
import type { OpenApiFlags } from './openapi-command.js'
import type { FuzzFlags } from './fuzz-command.js'
import type { RunFlags } from './options/run-options.js'
import type { SelftestFlags } from './selftest-command.js'
import type { ServeOptions } from './serve-command.js'

/**
 * Every command of the CLI; each action hands its exit code to process.exitCode. Each action imports
 * its command's module when it runs: a process loads only what its one command needs (every command's modules, the reference server's
 * included, loaded up front made `--version` slow).
 */
export function createProgram(): Command {
  const program = new Command('fitconform')
    .description('Conformance suite and recording proxy for the Fitness Data Service interface')
    .version(packageVersion())
    .option('--debug', 'print stack traces of internal errors')
    .option('--color', 'colour the output even when it is not a terminal (as FORCE_COLOR=1)')
    .option('--no-color', 'never colour the output (as NO_COLOR=1 or FORCE_COLOR=0)')
    .addHelpText(
      'after',
      '\nColour: on a terminal only, unless --color/--no-color, FORCE_COLOR (0 off, anything else on) or NO_COLOR (any non-empty value: off) say otherwise, in that order.',
    )
    .showSuggestionAfterError()
    // The flags win over the environment: each command reads colour from FORCE_COLOR (screen.ts).
    .hook('preAction', (root) => {
      const color = root.opts<{ color?: boolean }>().color
      if (color !== undefined && process.argv.some((arg) => arg === '--color' || arg === '--no-color'))
        process.env['FORCE_COLOR'] = color ? '1' : '0'
    })
    // Throw instead of exiting, so main.ts maps usage errors to exit code 2 (commander would use 1).
    .exitOverride()

  const run = program
    .command('run')
    .description('run the conformance scenarios against a server (default: the embedded reference server)')
    .argument('[paths...]', 'scenario files or folders (default: the built-in suites)')
  addOptions(run, sharedOptions('baseUrl', 'token', 'otherToken'))
  run
    .addOption(
      new Option('--revoked-token <token>', 'a user who disconnected the app without asking for deletion').env(
        'FITCONFORM_REVOKED_TOKEN',
      ),
    )
    .addOption(
      new Option('--revoked-delete-token <token>', 'a user who disconnected the app and asked for deletion').env(
        'FITCONFORM_REVOKED_DELETE_TOKEN',
      ),
    )
    .addOption(
      new Option('--limited-token <token>', 'an app token lacking the fitness-activities permission').env(
        'FITCONFORM_LIMITED_TOKEN',
      ),
    )
  addOptions(run, sharedOptions('config', 'reporter', 'outputDir'))
  run
    .option(
      '--grep <text>',
      'only scenarios whose id or title contains the text (case-insensitive; a|b for either, ^ and $ to anchor; not a regular expression)',
    )
    .option(
      '--max-body-bytes <n>',
      `a response body larger than this is not read on and its step is not judged (default ${RUN_DEFAULTS.maxBodyBytes} = ${RUN_DEFAULTS.maxBodyBytes / 1024 / 1024} MiB)`,
      parsePositiveInt,
    )
    .option('--tag <tag>', 'only scenarios with this tag (repeatable, or comma-separated)', collect)
    .option('--shard <i/n>', 'run the i-th of n slices of the scenarios', parseShard)
    .option(
      '--concurrency <n>',
      `scenarios at work at once (default ${RUN_DEFAULTS.concurrency}; one waiting out the server's clock lends its place)`,
      parsePositiveInt,
    )
  addOptions(run, sharedOptions('timeout'))
  run
    .option('--bail', 'stop starting scenarios after the first failure')
    .option('--strict', 'the documented irregularities of §2.2 fail instead of warn')
  addOptions(run, sharedOptions('readOnly'))
  run
    .option(
      '--survey',
      "judge the account's existing activities first, read-only (default: on when no path, --grep, --tag or --shard narrows the run; docs/account-survey.md)",
    )
    .option('--no-survey', "do not survey the account's existing activities")
    .option(
      '--survey-max-activities <n>',
      `the survey walks the feed up to this many activities, then stops and says so (default ${RUN_DEFAULTS.surveyMaxActivities})`,
      parsePositiveInt,
    )
    .option('--fail-on-skip', 'exit 1 when a scenario is skipped (e.g. a token role was not given)')
  addOptions(run, sharedOptions('ca', 'insecure'))
  run
    .option('--expect-failures <file>', 'YAML list of known failures that do not fail the run')
    .option('--verbose', 'print every failure with its evidence, not one evidence block per broken rule')
    .option(
      '--max-polling <seconds>',
      `how long all \`eventually\` steps of the run may keep resending, together (default ${RUN_DEFAULTS.maxPollingSeconds})`,
      parsePositiveInt,
    )
  addOptions(run, sharedOptions('showPersonalData'))
  run
    .addHelpText(
      'after',
      '\nExit codes: 0 no failure (warnings allowed), 1 a scenario failed (or --fail-on-skip saw a skip), 2 usage/config/scenario-file error, an output folder that cannot be made, or no token for --base-url (nothing was sent), or a report file the file system refused (a full disk), 3 the server could not be reached or the preflight refused a main token, 130 interrupted (SIGINT/SIGTERM; what the run changed was undone first).',
    )
    .action(async (paths: string[], flags: RunFlags) => {
      const { runCommand } = await import('./run-command.js')
      process.exitCode = await runCommand(paths, flags)
      // The run is over and its reports are written: end now, once stdout and stderr are out, rather
      // than let Node free a large run's heap page by page (docs/benchmarks.md).
      await Promise.all(
        [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
      )
      process.exit()
    })

  const fuzz = program
    .command('fuzz')
    .description(
      'generate request sequences, check every answer against a model of the spec, shrink a failure to a scenario file (default: the embedded reference server)',
    )
  addOptions(fuzz, [
    ...sharedOptions('baseUrl', 'token'),
    sharedOption('otherToken', 'a second user (redacted like the first)'),
  ])
  fuzz
    .option('--runs <n>', 'sequences to try (default 100)', parsePositiveInt)
    .option('--time <duration>', 'fuzz for this long instead, e.g. 60s or 2m', parseDuration)
    .option(
      '--seed <n>',
      'seed of the generation (default: random, printed); the same seed replays the same sequences',
      parseSeed,
    )
  addOptions(fuzz, [
    sharedOption('config', 'config file (default: fitconform.config.yaml when present)'),
    sharedOption('reporter', `comma-separated reporters (default ${RUN_DEFAULTS.reporters})`),
    sharedOption(
      'outputDir',
      `where reports, the ledger and fuzz/<rule>-<seed>.yaml go (default ${RUN_DEFAULTS.outputDir}/)`,
    ),
    sharedOption('timeout'),
    sharedOption('readOnly', 'fuzz only reads (GET/HEAD), for production accounts'),
    ...sharedOptions('ca', 'insecure'),
    sharedOption('showPersonalData', 'keep personal data in report files'),
  ])
  fuzz
    .addHelpText(
      'after',
      '\nExit codes: 0 no failure, 1 a failure was found (its shrunk scenario is in <output-dir>/fuzz/), 2 usage error, 3 the server could not be reached.',
    )
    .action(async (flags: FuzzFlags) => {
      const { fuzzCommand } = await import('./fuzz-command.js')
      process.exitCode = await fuzzCommand(flags)
    })

  program
    .command('rules')
    .description('print the rule catalogue and the scenarios that cover each rule')
    .argument('[paths...]', 'scenario files or folders (default: the built-in suites)')
    .option('--json', 'machine-readable output')
    .action(async (paths: string[], options: { json?: boolean }) => {
      const { rulesCommand } = await import('./rules-command.js')
      process.exitCode = await rulesCommand(paths, options)
    })

  program
    .command('serve')
    .description('start the reference server (prints its URL and its public demo tokens)')
    .option('--port <n>', 'port (default 0: any free port; the URL is printed)', parsePort, 0)
    .option('--host <address>', 'address to listen on (default 127.0.0.1; anything else is reachable from the network)')
    .addOption(
      new Option('--mode <mode>', 'conforming variant')
        .choices(['reference', 'quirky', 'other-choices', 'realistic'])
        .default('reference'),
    )
    .option('--mutant <name>', 'break exactly one rule (see --list-mutants)')
    .option('--list-mutants', 'list the mutants and exit')
    .action(async (options: ServeOptions & { listMutants?: boolean }) => {
      const { listMutants, serveCommand } = await import('./serve-command.js')
      process.exitCode = options.listMutants ? listMutants() : await serveCommand(options)
    })

  const cleanup = program
    .command('cleanup')
    .description('finish the cleanup of a run that was killed, from the ledger in --output-dir')
  addOptions(cleanup, [
    sharedOption('outputDir', `where the run wrote its ledger (default ${RUN_DEFAULTS.outputDir}/)`),
    sharedOption('baseUrl', 'the server to clean up (required: a ledger file is not trusted to name it)'),
    sharedOption('token', 'token of the user whose activities the run created'),
    sharedOption('otherToken', 'token of the second user'),
    ...sharedOptions('config', 'timeout', 'ca'),
    sharedOption('insecure', 'do not verify TLS certificates'),
  ])
  cleanup.action(async (flags: RunFlags) => {
    const { cleanupCommand } = await import('./cleanup-command.js')
    process.exitCode = await cleanupCommand(flags)
  })

  program
    .command('selftest')
    .description(
      'prove the suite catches faults: run it against conforming variants and every mutant of the reference server',
    )
    .argument('[paths...]', 'scenario files or folders (default: the built-in suites)')
    .option(
      '--only <names>',
      'only these targets (mutant names, reference, quirky, other-choices, realistic), comma-separated',
      collect,
    )
    .option('--json <file>', 'write the table as JSON')
    .option('--concurrency <n>', 'servers tested at once (default 12)', parsePositiveInt)
    .option(
      '--timeout <ms>',
      `per-request timeout (default 5000; with --fuzz ${RUN_DEFAULTS.timeoutMs})`,
      parsePositiveInt,
    )
    .option(
      '--fuzz',
      "fuzz the conforming servers and the fuzz-only mutants instead (fixed seed), and report the fuzz score beside the static suite's",
    )
    .option('--seed <n>', 'with --fuzz: the first seed (default 1)', parseSeed)
    .option(
      '--seeds <n>',
      'with --fuzz: consecutive seeds each conforming server must pass (default 100)',
      parsePositiveInt,
    )
    .option(
      '--runs <n>',
      'with --fuzz: sequences a seed on each conforming server (default 10; a fuzz-only mutant gets 60 of the first seed)',
      parsePositiveInt,
    )
    .action(async (paths: string[], flags: SelftestFlags) => {
      const { selftestCommand } = await import('./selftest-command.js')
      process.exitCode = await selftestCommand(paths, flags)
    })

  program
    .command('openapi')
    .description(
      'print the OpenAPI 3.1 document of the interface (paths, media types, statuses, x-rule ids), generated from the rules and schemas',
    )
    .option('-o, --output <file>', 'write to a file (.yaml/.yml for YAML, else JSON); - or none: stdout')
    .action(async (flags: OpenApiFlags) => {
      const { openApiCommand } = await import('./openapi-command.js')
      process.exitCode = await openApiCommand(flags)
    })

  addProxyCommands(program)
  addDiffCommand(program)
  return program
}

function addOptions(command: Command, options: readonly Option[]): void {
  for (const option of options) command.addOption(option)
}
