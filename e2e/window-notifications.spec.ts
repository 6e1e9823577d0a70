// Notification controls in the window: a project's mute switch and the header's one-hour pause,
// checked against the notifications the host records; and the tray's Preferences… item.
import type { MonitorEvent } from '../src/shared/monitor'
import type { TestHost } from './host'
import { expect, type PageEvents, test } from './support/fixtures'
import { chooseFromMenu, connect, DEFAULT_WINDOW, expectScreenAccessible, invoke, openHash } from './window.helpers'

/** The tasks the window was told had completed. */
async function completedTaskIds(events: PageEvents): Promise<string[]> {
  const seen = (await events.of('monitor:event')).filter(
    (e): e is Extract<MonitorEvent, { kind: 'task-status' }> => e.kind === 'task-status' && e.to === 'completed'
  )
  return seen.map((e) => e.taskId).sort()
}

async function watchedAndPolled(
  app: Parameters<typeof invoke>[0],
  host: TestHost,
  projectIds: string[]
): Promise<void> {
  for (const projectId of projectIds) await invoke(app, 'project:watch', { projectId })
  await expect
    .poll(() => host.controller.getState().projects.filter((p) => p.health.state === 'ok').length, { timeout: 15_000 })
    .toBe(projectIds.length)
}

test('a muted project raises no notification while another project’s does', async ({ app, host, events }) => {
  await connect(app, host)
  const control = host.service.control
  const quiet = control.createProject({ name: 'Quiet project' })
  const loud = control.createProject({ name: 'Loud project' })
  const quietTask = control.addTask(quiet.id, { name: 'Quiet work', status: 'in_progress', script: 'run-forever' })
  const loudTask = control.addTask(loud.id, { name: 'Loud work', status: 'in_progress', script: 'run-forever' })
  await watchedAndPolled(app, host, [quiet.id, loud.id])

  await openHash(app, `#/projects/${quiet.id}`)
  const meta = app.getByTestId('project-meta')
  await expect(meta).toBeVisible()
  await expect(meta).not.toContainText('muted')
  await chooseFromMenu(app, 'More actions', 'Mute notifications')
  await expect(app.getByTestId('announcer')).toContainText('muted')
  await expect(meta).toContainText('muted')
  const watchedQuiet = () => host.controller.getState().projects.find((p) => p.watched.projectId === quiet.id)?.watched
  expect(watchedQuiet()?.muted).toBe(true)
  await openHash(app, '#/projects')
  // The list says so on the row's meta line.
  await expect(app.locator(`[data-project-id="${quiet.id}"] .meta`)).toHaveText(/(^|· )Muted · /)
  await expect(app.locator(`[data-project-id="${loud.id}"] .meta`)).not.toContainText('Muted')

  control.setTaskStatus(quietTask.id, 'completed')
  control.setTaskStatus(loudTask.id, 'completed')
  await invoke(app, 'monitor:poll-now')
  // The monitor saw both tasks finish; only the one outside the muted project was announced.
  await expect.poll(() => completedTaskIds(events), { timeout: 15_000 }).toEqual([quietTask.id, loudTask.id].sort())
  await expect
    .poll(() => host.records.notifications)
    .toEqual([expect.objectContaining({ kind: 'task', projectId: loud.id, taskId: loudTask.id })])
  expect(JSON.stringify(host.records.notifications)).not.toContain('Quiet')

  // Unmuting from the same switch puts the project back.
  await openHash(app, `#/projects/${quiet.id}`)
  await chooseFromMenu(app, 'More actions', 'Unmute notifications')
  await expect.poll(() => watchedQuiet()?.muted).toBe(false)
})

test('notifications pause for an hour from the header, and resume', async ({ app, host, events }) => {
  await connect(app, host)
  const control = host.service.control
  const project = control.createProject({ name: 'Busy project' })
  const first = control.addTask(project.id, { name: 'First job', status: 'in_progress', script: 'run-forever' })
  const second = control.addTask(project.id, { name: 'Second job', status: 'in_progress', script: 'run-forever' })
  await watchedAndPolled(app, host, [project.id])
  await openHash(app, '#/projects')

  // The host's app runs on the system clock: an hour from the click lies between an hour from
  // just before it and an hour from just after the window showed it.
  const before = Date.now()
  await app.getByRole('button', { name: 'Pause notifications for 1 hour' }).click()
  await expect(app.getByTestId('notifications-paused-until')).toBeVisible()
  const after = Date.now()
  const until = (await invoke(app, 'app:get-state')).monitor.notificationsPausedUntil
  expect(until).not.toBeNull()
  expect(Date.parse(until!)).toBeGreaterThanOrEqual(before + 60 * 60_000)
  expect(Date.parse(until!)).toBeLessThanOrEqual(after + 60 * 60_000)

  control.setTaskStatus(first.id, 'completed')
  await invoke(app, 'monitor:poll-now')
  await expect.poll(() => completedTaskIds(events), { timeout: 15_000 }).toEqual([first.id])
  expect(host.records.notifications).toEqual([])

  await app.getByRole('button', { name: 'Resume notifications' }).click()
  await expect(app.getByRole('button', { name: 'Pause notifications for 1 hour' })).toBeVisible()
  await expect(app.getByTestId('notifications-paused-until')).toHaveCount(0)
  expect((await invoke(app, 'app:get-state')).monitor.notificationsPausedUntil).toBeNull()

  control.setTaskStatus(second.id, 'completed')
  await invoke(app, 'monitor:poll-now')
  await expect
    .poll(() => host.records.notifications, { timeout: 15_000 })
    .toEqual([expect.objectContaining({ kind: 'task', projectId: project.id, taskId: second.id })])
})

test('the tray’s Preferences… item opens the settings screen', async ({ app, host, request }) => {
  await connect(app, host)
  await expect(app.getByRole('heading', { name: 'Now', level: 1 })).toBeVisible()
  expect((await request.post(`${host.url}__host/control/navigate-settings`)).ok()).toBe(true)
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  expect(new URL(app.url()).hash).toBe('#/settings')
})

test.describe('accessibility', () => {
  test.use({ colorScheme: 'light', viewport: DEFAULT_WINDOW })

  test('the paused header and a muted project', async ({ app, host }) => {
    await connect(app, host)
    const project = host.service.control.createProject({ name: 'Muted one' })
    await watchedAndPolled(app, host, [project.id])
    await invoke(app, 'project:set-watch-options', { projectId: project.id, muted: true })
    await invoke(app, 'monitor:pause-notifications', { minutes: 60 })
    await openHash(app, `#/projects/${project.id}`)
    await expect(app.getByTestId('project-meta')).toContainText('muted')
    await app.getByRole('button', { name: 'More actions' }).click()
    await expect(app.getByRole('menuitem', { name: 'Unmute notifications' })).toBeVisible()
    await expectScreenAccessible(app, 'project, muted and paused', app.getByTestId('project-meta'))
    // The pause is in the top level's bar: one level down, the bar is the screen's.
    await openHash(app, '#/projects')
    const paused = app.getByRole('button', { name: 'Resume notifications' })
    await expect(paused).toBeVisible()
    await expect(app.locator(`[data-project-id="${project.id}"] .meta`)).toHaveText(/(^|· )Muted · /)
    await expectScreenAccessible(app, 'projects, muted and paused', paused)
  })
})
