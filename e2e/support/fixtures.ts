// Playwright fixtures for specs that drive the renderer through the test host: `host` is a fresh
// host (service, controller, settings) per test; `app` is a page opened on it with the bridge
// connected; `events` collects every event the page receives.
import { type APIRequestContext, expect, type Page, test as base } from '@playwright/test'
import { type Bridge, EVENT_CHANNELS, type EventChannel, type EventContract } from '../../src/shared/ipc'
import { startTestHost, type TestHost, type TestHostOptions } from '../host'

/** What the host adds to the page's window. */
export interface HostWindow {
  agentTray: Bridge
  __agentTrayHost: { ready: Promise<void> }
  __agentTrayEvents?: { channel: EventChannel; payload: unknown }[]
}

export type ReceivedEvent = { [E in EventChannel]: { channel: E; payload: EventContract[E] } }[EventChannel]

export interface PageEvents {
  /** Everything received so far, in order. */
  all(): Promise<ReceivedEvent[]>
  of<E extends EventChannel>(channel: E): Promise<EventContract[E][]>
}

/** Starts recording every event channel in the page (before the app's own subscriptions matter). */
export async function recordEvents(page: Page): Promise<PageEvents> {
  await page.evaluate(
    async (channels: EventChannel[]) => {
      const w = globalThis as unknown as HostWindow
      await w.__agentTrayHost.ready
      if (w.__agentTrayEvents) return
      const log: { channel: EventChannel; payload: unknown }[] = []
      w.__agentTrayEvents = log
      for (const channel of channels) w.agentTray.on(channel, (payload) => log.push({ channel, payload }))
    },
    [...EVENT_CHANNELS]
  )
  const all = () =>
    page.evaluate(() => ((globalThis as unknown as HostWindow).__agentTrayEvents ?? []) as ReceivedEvent[])
  return {
    all,
    async of(channel) {
      return (await all()).filter((e) => e.channel === channel).map((e) => e.payload) as never
    }
  }
}

export const test = base.extend<{
  hostOptions: TestHostOptions
  host: TestHost
  app: Page
  events: PageEvents
  request: APIRequestContext
}>({
  hostOptions: [{}, { option: true }],
  host: async ({ hostOptions }, use) => {
    const host = await startTestHost(hostOptions)
    try {
      await use(host)
      // An 'internal' error reached the window: a bug, whatever the spec was about.
      expect(host.internalErrors, 'internal errors in the host').toEqual([])
    } finally {
      await host.close()
    }
  },
  // The host takes changes only from its own origin: a spec's requests say they come from there.
  request: async ({ playwright, host }, use) => {
    const request = await playwright.request.newContext({ extraHTTPHeaders: { origin: new URL(host.url).origin } })
    try {
      await use(request)
    } finally {
      await request.dispose()
    }
  },
  app: async ({ page, host, hostOptions }, use) => {
    // The page's "today" is the app's (Date.now() fixed there; its timers keep running).
    if (hostOptions.clockStart !== undefined) await page.clock.setFixedTime(hostOptions.clockStart)
    await page.goto(host.url)
    await page.evaluate(() => (globalThis as unknown as HostWindow).__agentTrayHost.ready)
    await use(page)
  },
  events: async ({ app }, use) => {
    await use(await recordEvents(app))
  }
})

export { expect }
