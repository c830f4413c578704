import { InvalidArgumentError } from 'commander'
import type { Shard } from '../../plan/plan-run.js'

/** Parsers for commander: they throw InvalidArgumentError so bad flags look like commander's own errors. */
export function parseBaseUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError(
      'not a URL; expected something like https://api.example.com or http://127.0.0.1:8080/api/v1',
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('only http and https URLs are supported')
  return url
}

export function parsePositiveInt(value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a whole number of 1 or more')
  return number
}

export function parsePort(value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0 || number > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 = any free port)')
  return number
}

export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value)
  const index = Number(match?.[1])
  const total = Number(match?.[2])
  if (!match || total < 1 || index < 1 || index > total)
    throw new InvalidArgumentError('expected i/n with 1 ≤ i ≤ n, e.g. 2/4')
  return { index, total }
}

export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  ]
}

/** `--time 60s`, `2m`, `90` (seconds) → milliseconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)(s|m)?$/.exec(value.trim())
  if (!match || Number(match[1]) < 1) throw new InvalidArgumentError('expected a duration such as 60s or 2m')
  return Number(match[1]) * (match[2] === 'm' ? 60_000 : 1_000)
}

export function parseSeed(value: string): number {
  const seed = Number(value)
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2 ** 31 - 1)
    throw new InvalidArgumentError('expected a whole number from 0 to 2147483647')
  return seed
}
