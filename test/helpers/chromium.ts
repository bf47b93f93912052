/** Headless Chromium for the browser tests (Debian's `chromium` package, puppeteer-core); they skip,
 * saying so, where none is installed (`apt-get install chromium`, or set CHROMIUM_PATH). */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import puppeteer, { type Browser } from 'puppeteer-core'
import { realClockEnv } from './real-clock'

export const chromium = [
  process.env['CHROMIUM_PATH'],
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
]
  .filter((p): p is string => Boolean(p))
  .find((p) => existsSync(p))
if (!chromium)
  console.warn('skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)')

/** Where screenshots go (test/artifacts/, not committed). */
export const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url))

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromium!,
    headless: true,
    env: realClockEnv(), // Chromium hangs under faketime (real-clock.ts)
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
