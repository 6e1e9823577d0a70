// The test transport end to end with the real core and the real renderer: the page's
// window.agentTray talks to the controller through the host; a watched demo project's task
// changes status on screen without a reload, and the notification event arrives.
import type { MonitorEvent } from '../src/shared/monitor'
import { expect, type HostWindow, recordEvents, test } from './support/fixtures'

// Simulated time moves only when the test says so: the demo task ends exactly when we advance.
test.use({ hostOptions: { service: { manualClock: true } } })

test('a demo task changes status on screen without a reload, and its notification arrives', async ({
  app,
  host,
  request
}) => {
  const events = await recordEvents(app)

  const initial = await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['app:get-state']())
  expect(initial).toMatchObject({ ok: true, value: { demo: false, connections: [], projects: [] } })

  const refused = await app.evaluate(() =>
    (globalThis as unknown as HostWindow).agentTray['monitor:pause-notifications']({ minutes: 0 })
  )
  expect(refused).toMatchObject({
    ok: false,
    error: { kind: 'invalid_argument', message: expect.stringContaining('minutes') }
  })

  expect(await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['demo:start']())).toEqual({
    ok: true
  })
  const state = await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['app:get-state']())
  if (!state.ok) throw new Error(state.error.message)
  expect(state.value.demo).toBe(true)
  expect(state.value.projects).toHaveLength(3)

  // The demo's "Recipe Box" project has a task running now.
  await expect.poll(() => host.controller.getState().projects.every((p) => p.project !== null)).toBe(true)
  const recipe = host.controller.getState().projects.find((p) => p.project?.name === 'Recipe Box')
  if (!recipe) throw new Error('no Recipe Box project')
  const projectId = recipe.watched.projectId
  const tasks = await app.evaluate(
    (id) => (globalThis as unknown as HostWindow).agentTray['project:tasks']({ projectId: id }),
    projectId
  )
  if (!tasks.ok) throw new Error(tasks.error.message)
  const running = tasks.value.find((t) => t.status === 'in_progress')
  if (!running) throw new Error('the demo has no running task')
  // The other demo projects' running tasks may end in the same two minutes; told in the same round
  // they would make one summary instead of this task's own notification. Muted, they are not told.
  for (const other of host.controller.getState().projects.filter((p) => p.watched.projectId !== projectId)) {
    const muted = await app.evaluate(
      ([c, p]) =>
        (globalThis as unknown as HostWindow).agentTray['project:set-watch-options']({
          connectionId: c,
          projectId: p,
          muted: true
        }),
      [other.connectionId, other.watched.projectId] as const
    )
    expect(muted.ok).toBe(true)
  }

  await app.evaluate(() => {
    ;(globalThis as unknown as { __noReload: boolean }).__noReload = true
  })
  await app.evaluate(
    ([p, t]) => {
      ;(globalThis as unknown as { location: { hash: string } }).location.hash = `#/projects/${p}/tasks/${t}`
    },
    [projectId, running.id] as const
  )
  await expect(app.getByRole('heading', { name: running.name, level: 1 })).toBeVisible()
  // The task's status is the bar's icon, named for assistive technology.
  const status = app.getByRole('banner').locator('.lead').getByRole('img')
  await expect(status).toHaveAccessibleName('In progress')

  // Two simulated minutes later the agent has finished; the monitor sees it on the poll asked for.
  expect((await request.post(`${host.url}__host/control/advance`, { data: { ms: 120_000 } })).ok()).toBe(true)
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['monitor:poll-now']())
  await expect(status).toHaveAccessibleName('Completed')

  const isDone = (e: MonitorEvent) => e.kind === 'task-status' && e.taskId === running.id && e.to === 'completed'
  expect((await events.of('monitor:event')).some(isDone)).toBe(true)
  await expect
    .poll(async () => (await events.of('notification:shown')).filter((n) => n.taskId === running.id))
    .toEqual([expect.objectContaining({ projectId, taskId: running.id, body: expect.stringContaining(running.name) })])
  expect(host.records.notifications.some((n) => n.taskId === running.id)).toBe(true)

  expect(await app.evaluate(() => (globalThis as unknown as { __noReload?: boolean }).__noReload)).toBe(true)
  expect(JSON.stringify(await events.all())).not.toContain(host.serviceApiKey)
})
