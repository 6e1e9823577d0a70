// Small helpers for the window specs: calls through the page's bridge (as the window makes them)
// and the ids the reference service gave the demo.
import { AxeBuilder } from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import type { InvokeChannel, IpcResult, RequestOf, ResponseOf } from '../src/shared/ipc'
import type { TestHost } from './host'

/** One bridge call from inside the page; throws on a failure so a setup step cannot pass silently. */
export async function invoke<C extends InvokeChannel>(page: Page, channel: C, request?: RequestOf<C>): Promise<ResponseOf<C>> {
  const result = (await page.evaluate(
    async ([ch, req]) => {
      const bridge = (globalThis as unknown as { agentTray: Record<string, (r?: unknown) => Promise<unknown>> }).agentTray
      return req === undefined ? bridge[ch]!() : bridge[ch]!(req)
    },
    [channel, request] as const
  )) as IpcResult<ResponseOf<C>>
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.kind}: ${result.error.message}`)
  return result.value
}

/** Saves and activates a connection to the host's reference service, as the setup form does. */
export async function connect(page: Page, host: TestHost): Promise<void> {
  const saved = await invoke(page, 'connection:save', {
    connection: { name: 'Reference', baseUrl: host.service.url, publishingDomain: host.service.publishingDomain },
    apiKey: host.serviceApiKey
  })
  await invoke(page, 'connection:activate', { connectionId: saved.id })
}

/** The watched project with this name (demo projects have fixed names, random ids). */
export async function projectIdByName(page: Page, name: string): Promise<string> {
  const state = await invoke(page, 'app:get-state')
  const found = state.projects.find((p) => (p.project?.name ?? p.watched.name) === name)
  if (!found) throw new Error(`No watched project named ${name}: ${state.projects.map((p) => p.watched.name).join(', ')}`)
  return found.watched.projectId
}

export async function openHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    ;(globalThis as unknown as { location: { hash: string } }).location.hash = h
  }, hash)
}

/** axe on what the page shows now: no serious or critical violation. */
export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(serious).toEqual([])
}
