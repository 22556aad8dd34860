import { afterAll, beforeAll } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { cleanupTemp } from './helpers.ts'

// Debian's Chromium through playwright-core (never a downloaded browser), headless and quiet:
// no GPU, and none of the background traffic (updates, sync, field trials) a test must not make.
export const launchChromium = (): Promise<Browser> => chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})

// One browser for the tests of a file: launched before them, closed after them, with the file's
// temporary folders (cleanupTemp). Answers the browser, once launched.
export function browserForFile(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    cleanupTemp()
  })
  return () => browser!
}
