import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/support/browser'

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  testIgnore: '**/screenshots.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure'
  }
})
