import { chromium, type Browser } from 'playwright-core'

// Debian's Chromium through playwright-core (never a downloaded browser), headless and quiet:
// no GPU, and none of the background traffic (updates, sync, field trials) a test must not make.
export const launchChromium = (): Promise<Browser> => chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
