// The window acknowledges what is new: showing a project, or the list of projects, clears the
// failures the tray asks attention for (the controller's attention, through the real renderer).
import { expect, test } from './support/fixtures'

test.use({ hostOptions: { service: { manualClock: true } } })

test('showing a project, then the projects list, acknowledges its new failures', async ({ app, host }) => {
  await host.controller.handlers['demo:start']()
  const [first, second] = host.controller.getState().projects.map((p) => p.watched.projectId)
  if (!first || !second) throw new Error('the demo has fewer than two projects')
  await app.evaluate(() => {
    ;(globalThis as unknown as { location: { hash: string } }).location.hash = '#/settings'
  })
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()

  const a = host.service.control.addTask(first, { name: 'Will fail A', status: 'in_progress', script: 'run-forever' })
  const b = host.service.control.addTask(second, { name: 'Will fail B', status: 'in_progress', script: 'run-forever' })
  await host.controller.handlers['monitor:poll-now']()
  host.service.control.setTaskStatus(a.id, 'failed')
  host.service.control.setTaskStatus(b.id, 'failed')
  await host.controller.handlers['monitor:poll-now']()
  const attention = () => Object.fromEntries(host.controller.getState().projects.map((p) => [p.watched.projectId, p.attention.failedTaskIds]))
  expect(attention()).toMatchObject({ [first]: [a.id], [second]: [b.id] })
  // The tray, as the app's composition draws it, asks for attention.
  await expect.poll(() => host.records.tray?.state).toBe('attention')
  expect(host.records.tray?.menu[0]).toEqual({ kind: 'label', label: '2 newly failed' })

  await app.evaluate((id) => {
    ;(globalThis as unknown as { location: { hash: string } }).location.hash = `#/projects/${id}`
  }, first)
  await expect.poll(attention).toMatchObject({ [first]: [], [second]: [b.id] })

  await app.evaluate(() => {
    ;(globalThis as unknown as { location: { hash: string } }).location.hash = '#/projects'
  })
  await expect.poll(attention).toMatchObject({ [first]: [], [second]: [] })
  await expect.poll(() => host.records.tray?.state).not.toBe('attention')
})
