// The tray, power and network through the app's own composition (core/app/compose.ts): the host
// draws the tray model main would draw, and drives the same lifecycle wiring main drives.
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './support/fixtures'

test.use({ hostOptions: { service: { manualClock: true } } })

const tray = async (request: APIRequestContext, url: string) =>
  (await (await request.get(`${url}__host/control/tray`)).json()) as {
    state: string
    tooltip: string
    menu: { kind: string; label?: string }[]
  }

test('the tray menu lists each watched project and its running task; its items act through the app', async ({
  app,
  host,
  request
}) => {
  await host.controller.startDemo()
  await expect.poll(async () => (await tray(request, host.url)).state).toBe('running')
  // The project's name arrives with its first fetch, which may follow the first poll.
  await expect
    .poll(async () => (await tray(request, host.url)).menu.filter((i) => i.kind === 'submenu').map((i) => i.label))
    .toEqual(expect.arrayContaining([expect.stringMatching(/^Recipe Box \(1 running\)$/)]))
  // Preferences… shows the window on the settings screen.
  const shownBefore = host.records.windowShown
  expect((await request.post(`${host.url}__host/control/tray-action`, { data: { type: 'preferences' } })).ok()).toBe(
    true
  )
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  expect(host.records.windowShown).toBe(shownBefore + 1)
  // Pause notifications for an hour, then resume, from the tray.
  await request.post(`${host.url}__host/control/tray-action`, { data: { type: 'pause-notifications', minutes: 60 } })
  await expect.poll(() => host.controller.getState().monitor.notificationsPausedUntil).not.toBeNull()
  await expect
    .poll(async () => (await tray(request, host.url)).menu.some((i) => i.label === 'Resume Notifications'))
    .toBe(true)
  await request.post(`${host.url}__host/control/tray-action`, { data: { type: 'resume-notifications' } })
  await expect.poll(() => host.controller.getState().monitor.notificationsPausedUntil).toBeNull()
  await request.post(`${host.url}__host/control/tray-action`, { data: { type: 'quit' } })
  expect(host.records.quit).toBe(1)
})

test('offline pauses polling and the tray says so; back online, it resumes', async ({ host, request }) => {
  await host.controller.startDemo()
  await request.post(`${host.url}__host/control/online`, { data: { online: false } })
  await expect.poll(async () => (await tray(request, host.url)).state).toBe('offline')
  expect(host.controller.getState().monitor.paused).toBe(true)
  await request.post(`${host.url}__host/control/online`, { data: { online: true } })
  await expect.poll(async () => (await tray(request, host.url)).state).not.toBe('offline')
  expect(host.controller.getState().monitor.paused).toBe(false)
})

test('sleep pauses polling; waking resumes it', async ({ host, request }) => {
  await host.controller.startDemo()
  await request.post(`${host.url}__host/control/power`, { data: { event: 'suspend' } })
  await expect.poll(() => host.controller.getState().monitor.paused).toBe(true)
  await request.post(`${host.url}__host/control/power`, { data: { event: 'resume' } })
  await expect.poll(() => host.controller.getState().monitor.paused).toBe(false)
})

test('a notification click opens the window on its task', async ({ app, host, request }) => {
  await host.controller.startDemo()
  const recipe = host.controller.getState().projects[0]!
  const tasks = await host.controller.handlers['project:tasks']({ projectId: recipe.watched.projectId })
  const task = tasks[0]!
  const shownBefore = host.records.windowShown
  await request.post(`${host.url}__host/control/notification-click`, {
    data: { type: 'task', projectId: recipe.watched.projectId, taskId: task.id }
  })
  await expect(app.getByRole('heading', { name: task.name, level: 1 })).toBeVisible()
  expect(host.records.windowShown).toBe(shownBefore + 1)
})
