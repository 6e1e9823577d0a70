// The test transport end to end with the real core: the page's window.agentTray talks to the
// controller through the host, a watched demo project's task changes status without a reload,
// and the notification event arrives.
import type { MonitorEvent } from '../src/shared/monitor'
import { expect, recordEvents, test, type HostWindow } from './support/fixtures'

test('the bridge carries invokes and events between the page and the core', async ({ app, host }) => {
  const events = await recordEvents(app)

  const initial = await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['app:get-state']())
  expect(initial).toMatchObject({ ok: true, value: { demo: false, connections: [], projects: [] } })

  const bad = await app.evaluate(() =>
    (globalThis as unknown as HostWindow).agentTray['monitor:pause-notifications']({ minutes: 0 })
  )
  expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_argument', message: expect.stringContaining('minutes') } })

  const started = await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['demo:start']())
  expect(started).toEqual({ ok: true })

  const state = await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['app:get-state']())
  if (!state.ok) throw new Error(state.error.message)
  expect(state.value.demo).toBe(true)
  expect(state.value.projects).toHaveLength(3)
  expect(JSON.stringify(state)).not.toContain(host.serviceApiKey)

  // The demo's running task ends within seconds; the page learns of it without a reload.
  const ended = (e: MonitorEvent) => e.kind === 'task-status' && (e.to === 'completed' || e.to === 'failed')
  await expect.poll(async () => (await events.of('monitor:event')).filter(ended).length, { timeout: 30_000 }).toBeGreaterThan(0)
  const change = (await events.of('monitor:event')).find(ended)
  if (change?.kind !== 'task-status') throw new Error('no task-status event')

  await expect
    .poll(async () => (await events.of('notification:shown')).some((n) => n.taskId === change.taskId), { timeout: 10_000 })
    .toBe(true)
  expect(host.records.notifications.some((n) => n.taskId === change.taskId)).toBe(true)

  // The pushed state agrees with the change.
  await expect
    .poll(async () => {
      const pushed = (await events.of('app:state')).at(-1)
      const project = pushed?.projects.find((p) => p.watched.projectId === change.projectId)
      return project?.counts.total ?? 0
    })
    .toBeGreaterThan(0)
  const all = JSON.stringify(await events.all())
  expect(all).not.toContain(host.serviceApiKey)
})
