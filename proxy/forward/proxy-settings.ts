/**
 * What `fitconform proxy` was asked to do, as one plain object: built once from the command's options
 * (with the defaults of proxy-defaults.ts), then handed whole, or a named part of it, from the command
 * to the listener, the forwarder, the recorder and the recording thread. Plain data only (no URL, no
 * Buffer, no function), so it crosses to the recording thread as it is.
 */
import { DEFAULT_HOST, DEFAULT_RECORDED_BODY_BYTES, DEFAULT_UPSTREAM_TIMEOUT_MS } from './proxy-defaults.js'

/** Where and how the proxy listens (`--host`, `--port`, `--tls-cert`, `--tls-key`). */
export interface ListenSettings {
  readonly host: string
  /** 0: any free port. */
  readonly port: number
  /** PEM files; the command refuses one without the other. */
  readonly tlsCert?: string
  readonly tlsKey?: string
}

/** How requests go upstream (`--timeout`, `--insecure`). */
export interface ForwardSettings {
  /** Upstream headers and idle-body timeout in milliseconds. */
  readonly timeoutMs: number
  /** Accept a self-signed certificate from an HTTPS target. */
  readonly insecure: boolean
}

/** What is recorded and printed (`--record`, `--max-bytes`, `--max-body-bytes`, `--strict`, `--quiet`). */
export interface RecordingSettings {
  /** NDJSON recording file; nothing is written without it. */
  readonly file?: string
  /** Rotate the recording past this size. */
  readonly maxBytes?: number
  /** Bodies are recorded up to this many bytes, marked truncated beyond. */
  readonly maxBodyBytes: number
  /** The documented irregularities of §2.2 count as violations. */
  readonly strict: boolean
  /** Print only the finding lines, not one line per exchange. */
  readonly quiet: boolean
}

/** What is redacted besides credentials (`--redact`, `--redact-header`, `--redact-personal`). */
export interface RedactionChoices {
  readonly bodyPaths: readonly string[]
  readonly headers: readonly string[]
  readonly personal: boolean
}

export interface ProxySettings {
  /** The server to forward to (`--target`), as its href; may carry a base path. */
  readonly target: string
  readonly listen: ListenSettings
  readonly forward: ForwardSettings
  readonly recording: RecordingSettings
  readonly redaction: RedactionChoices
}

/** The options of `fitconform proxy` as commander parses them. */
export interface ProxyFlags {
  readonly target: URL
  readonly port?: number
  readonly host?: string
  readonly record?: string
  readonly strict?: boolean
  readonly timeout?: number
  readonly insecure?: boolean
  readonly tlsCert?: string
  readonly tlsKey?: string
  readonly redact?: readonly string[]
  readonly redactHeader?: readonly string[]
  readonly redactPersonal?: boolean
  readonly maxBodyBytes?: number
  readonly maxBytes?: number
  readonly quiet?: boolean
}

/** The settings a command line asks for, every default filled in. */
export function proxySettings(flags: ProxyFlags): ProxySettings {
  return {
    target: flags.target.href,
    listen: {
      host: normalizeHost(flags.host ?? DEFAULT_HOST),
      port: flags.port ?? 0,
      tlsCert: flags.tlsCert,
      tlsKey: flags.tlsKey,
    },
    forward: { timeoutMs: flags.timeout ?? DEFAULT_UPSTREAM_TIMEOUT_MS, insecure: flags.insecure === true },
    recording: {
      file: flags.record,
      maxBytes: flags.maxBytes,
      maxBodyBytes: flags.maxBodyBytes ?? DEFAULT_RECORDED_BODY_BYTES,
      strict: flags.strict === true,
      quiet: flags.quiet === true,
    },
    redaction: {
      bodyPaths: [...(flags.redact ?? [])],
      headers: [...(flags.redactHeader ?? [])],
      personal: flags.redactPersonal === true,
    },
  }
}

/** A `--host` value as `listen()` takes it: `[::1]` (as written in URLs) becomes `::1`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim()
  return trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed
}
