import type { LaunchOptions } from '@playwright/test'

/**
 * Chromium for the end-to-end tests. Playwright cannot download its own browser on every
 * machine, so the path comes from PLAYWRIGHT_CHROMIUM_PATH, falling back to Debian's package.
 * On a laptop with `npx playwright install chromium`, set PLAYWRIGHT_CHROMIUM_PATH="" to use it.
 */
export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = process.env): LaunchOptions {
  const configured = env.PLAYWRIGHT_CHROMIUM_PATH
  const executablePath = configured === undefined ? '/usr/bin/chromium' : configured || undefined
  return {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync'
    ]
  }
}
