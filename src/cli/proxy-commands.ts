// Wiring only (STYLE §2.13): each action imports its command function from proxy/commands/ when it runs
// and hands it the options; the function returns the exit code. Nothing of the proxy loads up front, so
// `--version`, `run` and the rest pay nothing for it (the help texts' constants come from a light module).
import type { Command } from 'commander'
import type { ProxyCommandOptions } from '../../proxy/commands/proxy-command.js'
import { DEFAULT_HOST, DEFAULT_RECORDED_BODY_BYTES, REDACT_KEY_ENV } from '../../proxy/forward/proxy-defaults.js'
import { collect, parseBaseUrl, parsePort, parsePositiveInt } from './options/option-parsers.js'

/** `proxy`, `analyze`, `har`, `scaffold` and `mock`. */
export function addProxyCommands(program: Command): void {
  program
    .command('proxy')
    .description(
      'forward to a server, record every exchange (NDJSON of HAR entries) and flag what breaks the spec, live',
    )
    .requiredOption('--target <url>', 'the server to forward to, may carry a base path', parseBaseUrl)
    .option('--port <n>', 'port to listen on (0 = any free port)', parsePort, 0)
    .option(
      '--host <address>',
      `address to listen on; anything but loopback exposes the traffic, tokens included, to the network (default ${DEFAULT_HOST})`,
    )
    .option('--record <file>', 'append one line per exchange to this file')
    .option('--strict', 'the documented irregularities of §2.2 count as violations (exit 1 if any violation)')
    .option('--timeout <ms>', 'give up on a silent upstream after this long: 504 (default 30000)', parsePositiveInt)
    .option('--tls-cert <file>', 'listen with TLS: PEM certificate (with --tls-key)')
    .option('--tls-key <file>', 'listen with TLS: PEM private key')
    .option('--insecure', 'accept a self-signed certificate from an HTTPS target')
    .option(
      '--redact <jsonPath>',
      'redact this JSON body field before writing, e.g. path[*].latitude (repeatable, comma-separated)',
      collect,
    )
    .option('--redact-header <name>', 'redact this header too (repeatable); authorization, cookies always are', collect)
    .option('--redact-personal', 'redact GPS path points and profile names, locations, birthdays and pictures')
    .option(
      '--max-body-bytes <n>',
      `record bodies up to this size, marked truncated beyond (default ${DEFAULT_RECORDED_BODY_BYTES})`,
      parsePositiveInt,
    )
    .option('--max-bytes <n>', 'rotate the recording to <file>.1, <file>.2, … past this size', parsePositiveInt)
    .option('--quiet', 'print findings only, not one line per exchange')
    .addHelpText(
      'after',
      `\nToken ids in the recording are keyed hashes; set ${REDACT_KEY_ENV} while recording (and again for mock) so that mock can tell users apart and ids stay stable across recordings.\nStops on Ctrl-C (SIGINT) or SIGTERM. Exit codes: 0; 1 with --strict when a violation was seen, or when an exchange could not be recorded (e.g. a full disk); 2 cannot start.`,
    )
    .action(async (options: ProxyCommandOptions) => {
      const { runProxyCommand } = await import('../../proxy/commands/proxy-command.js')
      process.exitCode = await runProxyCommand(options)
    })

  program
    .command('analyze')
    .description('summarize a recording: exchanges per endpoint, statuses, findings by rule with examples')
    .argument('<files...>', 'recording files (NDJSON), e.g. rotated parts in order')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExit codes: 0; 1 when the recording holds a violation; 2 unreadable file.')
    .action(async (files: string[], options: { json?: boolean }) => {
      const { runAnalyzeCommand } = await import('../../proxy/commands/analyze-command.js')
      process.exitCode = await runAnalyzeCommand(files, options)
    })

  program
    .command('har')
    .description('convert a recording to one HAR 1.2 file for browser dev tools')
    .argument('<files...>', 'recording files (NDJSON)')
    .option(
      '-o, --output <file>',
      'the .har file to write, - for stdout (default: beside the first recording, e.g. session.har)',
    )
    .option('--force', 'overwrite the .har file if it exists (a symbolic link is never written through)')
    .action(async (files: string[], options: { output?: string; force?: boolean }) => {
      const { runHarCommand } = await import('../../proxy/commands/har-command.js')
      process.exitCode = await runHarCommand(files, options)
    })

  program
    .command('scaffold')
    .description('write YAML scenarios from a recording, one per distinct flow, for review')
    .argument('<files...>', 'recording files (NDJSON)')
    .requiredOption('-o, --output <dir>', 'folder for the scenario files (not the built-in suites/)')
    .option('--into-suites', 'allow writing inside the built-in suites/ folder')
    .option('--force', 'overwrite scenario files that exist')
    .action(async (files: string[], options: { output: string; intoSuites?: boolean; force?: boolean }) => {
      const { runScaffoldCommand } = await import('../../proxy/commands/scaffold-command.js')
      process.exitCode = await runScaffoldCommand(files, options)
    })

  program
    .command('mock')
    .description(
      'serve a recording back as a mock server, matching method, path, query, media type, credentials and conditional headers (unmatched requests get 501 with the nearest recorded one)',
    )
    .argument('<files...>', 'recording files (NDJSON)')
    .option('--port <n>', 'port (0 = any free port)', parsePort, 0)
    .option('--host <address>', 'address to listen on (default 127.0.0.1; anything else is reachable from the network)')
    .option('--tls-cert <file>', 'listen with TLS: PEM certificate (with --tls-key)')
    .option('--tls-key <file>', 'listen with TLS: PEM private key')
    .option('--quiet', 'no line per request')
    .addHelpText(
      'after',
      `\nWith ${REDACT_KEY_ENV} set to the key the recording was made with, a request's token must be the recorded one. Without it, a recording of one user's token answers any token as that user, and a recording of several users' tokens answers no request with a token (501): it cannot tell whose it is.\nStops on Ctrl-C (SIGINT) or SIGTERM. Exit codes: 0; 2 missing recording, unreadable certificate or key, or cannot listen (e.g. port in use).`,
    )
    .action(
      async (
        files: string[],
        options: { port: number; host?: string; quiet?: boolean; tlsCert?: string; tlsKey?: string },
      ) => {
        const { runMockCommand } = await import('../../proxy/commands/mock-command.js')
        process.exitCode = await runMockCommand(files, options)
      },
    )
}
