// One way for the browser tests to open a report: Debian's Chromium, headless with the flags this
// machine's closed network needs, and a record of what a reader would see go wrong on the page.
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'

export interface OpenReport {
  readonly browser: Browser
  readonly page: Page
  /** Console errors and uncaught page errors (a CSP violation is one). */
  readonly consoleErrors: string[]
  /** Messages of dialogs the page opened (each dismissed): a script run from the data would open one. */
  readonly dialogs: string[]
}

export async function openReport(htmlFile: string): Promise<OpenReport> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install it with \`apt-get install -y chromium\``)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const consoleErrors: string[] = []
  const dialogs: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(pathToFileURL(htmlFile).href)
  return { browser, page, consoleErrors, dialogs }
}
