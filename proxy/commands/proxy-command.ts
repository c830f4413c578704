import { withoutUserinfo } from '../../src/shared/secrets.js'
import { REDACT_KEY_ENV } from '../forward/proxy-defaults.js'
import { startProxy } from '../forward/proxy-server.js'
import { SecretScrubber } from '../recording/redaction.js'
import { EXIT } from '../../src/shared/exit-codes.js'
import { printDiagnostic, processIO, type CommandIO } from './io.js'
import { readTlsFiles } from './tls-files.js'
import { hostWarning, listenProblem } from './listen-address.js'
import { proxySettings, type ProxyFlags } from '../forward/proxy-settings.js'
import { waitForStop } from './wait-for-stop.js'

/** The command's options as commander parses them, and what tests add. */
export interface ProxyCommandOptions extends ProxyFlags {
  /** Stops the proxy (tests); by default SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal
  /** Called once the proxy listens (tests). */
  readonly onReady?: (url: string) => void
}

/**
 * `fitconform proxy`: forwards to the target until SIGINT/SIGTERM, records, prints findings live.
 * Exit code 0; 1 under --strict when a violation was seen, or when an exchange could not be recorded;
 * 2 when it cannot start.
 */
/**
 * Said when a recording starts without a key: its tokens are hashed with a key that dies with the
 * process, so `mock` can tell that a request carried a credential but never which user's it was.
 */
const NO_REDACT_KEY_NOTE = `note: ${REDACT_KEY_ENV} is not set, so the tokens in this recording are hashed with a key made for this process alone: \`fitconform mock\` will not tell its users apart (with more than one user's token recorded, it answers no request that carries a token). To replay per user, set ${REDACT_KEY_ENV} to a secret of your own (e.g. \`export ${REDACT_KEY_ENV}=$(openssl rand -hex 32)\`) before recording, and again when you run mock.`

/** Said when a recording starts with the key: what replaying it per user needs. */
const REDACT_KEY_NOTE = `note: tokens are recorded as hashes keyed with ${REDACT_KEY_ENV}: run \`fitconform mock\` with the same ${REDACT_KEY_ENV} to replay each user's answers to that user's token only.`

export async function runProxyCommand(options: ProxyCommandOptions, io: CommandIO = processIO): Promise<number> {
  const settings = proxySettings(options)
  const tlsFiles = readTlsFiles(settings.listen, io)
  if (tlsFiles === undefined) return EXIT.usage
  const { tls } = tlsFiles
  let redactor: SecretScrubber
  try {
    redactor = new SecretScrubber({ ...settings.redaction, key: process.env[REDACT_KEY_ENV] || undefined })
  } catch (err) {
    printDiagnostic(io, {
      code: 'E_REDACT_PATH',
      kind: 'load',
      message: (err as Error).message,
      hint: 'write --redact as a JSON path into the body, e.g. path[*].latitude or items[*].uri',
    })
    return EXIT.usage
  }
  const { host, port } = settings.listen
  const warning = hostWarning(host)
  if (warning !== undefined) io.err(warning)
  let proxy
  try {
    proxy = await startProxy({ settings, redactor, tls, print: io.err, printProblem: io.err })
  } catch (err) {
    const listening = listenProblem(err, { host, port })
    printDiagnostic(io, {
      code: listening === undefined ? 'E_PROXY_START' : 'E_LISTEN',
      kind: 'load',
      ...(listening ?? {
        message: `cannot start the proxy: ${(err as Error).message}`,
        hint: 'check that the --record file can be created and written',
      }),
    })
    return EXIT.usage
  }
  const { file } = settings.recording
  io.out(
    `fitconform proxy listening on ${proxy.url} → ${withoutUserinfo(settings.target)}${file === undefined ? '' : `, recording to ${file}`}`,
  )
  if (file !== undefined) io.err(process.env[REDACT_KEY_ENV] ? REDACT_KEY_NOTE : NO_REDACT_KEY_NOTE)
  options.onReady?.(proxy.url)
  await waitForStop(options.signal)
  await proxy.close()
  const { exchanges, failed, unrecorded, rejected, findings } = proxy.stats
  const parts = [`${exchanges} exchanges`, failed === 0 ? 'none failed upstream' : `${failed} failed upstream`]
  if (rejected > 0) parts.push(`${rejected} requests rejected as unforwardable (400)`)
  io.out(
    `${parts.join(', ')}: ${findings.violation} violations, ${findings.irregularity} irregularities, ${findings.note} notes, ${findings['unknown-endpoint']} unknown endpoints`,
  )
  if (unrecorded > 0) {
    printDiagnostic(io, {
      code: 'E_UNRECORDED',
      kind: 'error',
      message: `${unrecorded} of ${exchanges} exchanges were forwarded but are NOT in the recording ${file ?? ''} (see the errors above)`,
      hint: 'the errors above say why; record those exchanges again once it is fixed',
    })
    return EXIT.failed
  }
  return settings.recording.strict && findings.violation > 0 ? EXIT.failed : EXIT.ok
}
