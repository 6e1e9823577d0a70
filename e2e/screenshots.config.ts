// `npm run screenshots`: a PNG of every main screen in both themes, written to e2e/screenshots/.
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './support/browser'

// One time zone for the host's and the page's "today", whatever the machine's (the demo clock is frozen in the spec).
process.env.TZ = 'UTC'

export default defineConfig({
  testDir: '.',
  testMatch: 'screenshots.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions(),
    timezoneId: 'UTC',
    locale: 'en-US',
    viewport: { width: 420, height: 640 }
  }
})
