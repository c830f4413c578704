import { type Command, Option } from 'commander'
import { RUN_DEFAULTS } from '../api/defaults.js'
import { collect, parseBaseUrl, parsePositiveInt } from './options/option-parsers.js'
import { sharedOption } from './options/shared-options.js'
import type { DiffFlags } from './diff-command.js'
import { TOKEN_ROLES } from '../model/scenario.js'
import { envVarOfRole } from '../plan/plan-run.js'

const MODES = ['reference', 'quirky', 'other-choices']

/** `fitconform diff`: the same scenarios against a new server and a reference (a second server, or a recording of one). */
export function addDiffCommand(program: Command): void {
  const diff = program
    .command('diff')
    .description(
      'run the same scenarios against a new server and a reference server (or replay a recording), and list where their answers differ: conformance, open choice of the spec, extension',
    )
    .argument('[paths...]', 'scenario files or folders (default: the built-in suites)')
    .addOption(
      new Option('--base-url <url>', 'the new server (default: the embedded reference server in --mode)')
        .env('FITCONFORM_BASE_URL')
        .argParser(parseBaseUrl),
    )
    .addOption(new Option('--token <token>', 'new server: a normal user with all permissions').env('FITCONFORM_TOKEN'))
    .addOption(new Option('--other-token <token>', 'new server: a second user').env('FITCONFORM_OTHER_TOKEN'))
    .addOption(
      new Option('--revoked-token <token>', 'new server: a user who disconnected the app').env(
        'FITCONFORM_REVOKED_TOKEN',
      ),
    )
    .addOption(
      new Option(
        '--revoked-delete-token <token>',
        'new server: a user who disconnected the app and asked for deletion',
      ).env('FITCONFORM_REVOKED_DELETE_TOKEN'),
    )
    .addOption(
      new Option('--limited-token <token>', 'new server: an app token lacking the fitness-activities permission').env(
        'FITCONFORM_LIMITED_TOKEN',
      ),
    )
    .addOption(
      new Option(
        '--reference-url <url>',
        'the server clients depend on today (default: the embedded reference server in --reference-mode)',
      )
        .env('FITCONFORM_REFERENCE_URL')
        .argParser(parseBaseUrl),
    )
  // The reference server's token twins, one per role of the new server: --reference-token, …
  for (const role of TOKEN_ROLES) {
    diff.addOption(
      new Option(`--reference-${role} <token>`, `reference server: the --${role} role`).env(
        envVarOfRole(role).replace('FITCONFORM_', 'FITCONFORM_REFERENCE_'),
      ),
    )
  }
  diff
    .option(
      '--recording <file>',
      'instead of a reference server: replay this proxy recording against the new server and compare with the recorded answers',
    )
    .addOption(
      new Option(
        '--fail-on <level>',
        'exit 1 on: conformance differences, open-choice (and conformance), any (and extensions)',
      )
        .choices(['conformance', 'open-choice', 'any'])
        .default('conformance'),
    )
    .option(
      '--reporter <list>',
      'comma-separated: console, json, markdown, html; name:file sets the file (default console)',
    )
    .option(
      '--output-dir <dir>',
      `where report files and each side's cleanup ledger (diff-new/, diff-reference/) go (default ${RUN_DEFAULTS.outputDir}/)`,
    )
    .option('--config <file>', "config file for the new server's side (values, timeout, concurrency)")
    .option('--grep <text>', 'only scenarios whose id or title contains the text')
    .option('--tag <tag>', 'only scenarios with this tag (repeatable)', collect)
    .addOption(sharedOption('readOnly', 'run only scenarios that change nothing (GET/HEAD)'))
    .option(
      '--concurrency <n>',
      `scenarios at work at once on each side (default ${RUN_DEFAULTS.concurrency})`,
      parsePositiveInt,
    )
    .addOption(sharedOption('timeout'))
    .addOption(sharedOption('ca'))
    .addOption(sharedOption('insecure'))
    .addOption(new Option('--mode <mode>', "without --base-url: the embedded server's conforming mode").choices(MODES))
    .option(
      '--mutant <name>',
      'without --base-url: the embedded server breaks this one rule (fitconform serve --list-mutants)',
    )
    .addOption(
      new Option(
        '--reference-mode <mode>',
        "without --reference-url: the embedded reference's conforming mode",
      ).choices(MODES),
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 no difference at the --fail-on level, 1 some, 2 usage/config/scenario-file error (nothing was sent), 3 a server could not be reached, 130 interrupted.\nSee docs/diff.md.',
    )
    .action(async (paths: string[], flags: DiffFlags) => {
      const { diffCommand } = await import('./diff-command.js')
      process.exitCode = await diffCommand(paths, flags)
    })
}
