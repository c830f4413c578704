import { styleText } from 'node:util'

type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'gray' | 'bold' | 'dim'

/** Colours text, or returns it unchanged: callers never test `colors` themselves. */
export type Styler = Readonly<Record<Style, (text: string) => string>>

const STYLES: readonly Style[] = ['red', 'green', 'yellow', 'cyan', 'gray', 'bold', 'dim']

/**
 * The reporters decide about colour from `Screen.colors` (the CLI turns it off under NO_COLOR or a
 * non-TTY), so styleText must not second-guess the stream: validateStream is off.
 */
export function createStyler(colors: boolean): Styler {
  const entries = STYLES.map((style) => [
    style,
    colors ? (text: string) => styleText(style, text, { validateStream: false }) : (text: string) => text,
  ])
  return Object.fromEntries(entries) as Styler
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}
