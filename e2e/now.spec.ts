// The Now screen through the real renderer: what is new across the watched projects, each item
// acknowledged on its own, all at once, or by opening its task; the tray's attention follows
// (the host records the tray model's view, as main would draw it). Projects no longer acknowledge.
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { openHash } from './window.helpers'

test.use({ hostOptions: { service: { manualClock: true } } })

const trayOf = async (request: APIRequestContext, url: string) =>
  (await (await request.get(`${url}__host/control/tray`)).json()) as {
    state: string
    menu: { kind: string; label?: string }[]
  }

test('each item can be seen on its own, by opening its task, or all at once; the tray follows', async ({
  app,
  host,
  request
}) => {
  await host.controller.handlers['demo:start']()
  const [first, second] = host.controller.getState().projects.map((p) => p.watched.projectId)
  if (!first || !second) throw new Error('the demo has fewer than two projects')
  const a = host.service.control.addTask(first, { name: 'Will fail A', status: 'in_progress', script: 'run-forever' })
  const b = host.service.control.addTask(second, { name: 'Will fail B', status: 'in_progress', script: 'run-forever' })
  const c = host.service.control.addTask(second, {
    name: 'Will complete C',
    status: 'in_progress',
    script: 'run-forever'
  })
  await host.controller.handlers['monitor:poll-now']()
  await openHash(app, '#/now')
  // Running tasks show the step they are on, its number and how long it has run: no made-up fraction.
  const running = app.getByRole('list', { name: 'Running tasks' })
  await expect(running.locator(`[data-task-id="${a.id}"]`)).toContainText('Will fail A')
  // An elapsed time of a few seconds (the service's clock stands still here) reads "just now", never "0ms"; it
  // ticks in the row's trailing slot, where the meta line's cut never reaches it.
  await expect(running.locator(`[data-task-id="${a.id}"]`).getByTestId('current-step')).toContainText(
    /Step \d+: .+|starting/
  )
  await expect(running.locator(`[data-task-id="${a.id}"] .trail`).getByTestId('elapsed')).toHaveText(
    /^(just now|\d+ ?(s|m|h|d)\b.*)$/
  )
  await expect(running.locator(`[data-task-id="${a.id}"]`).getByTestId('elapsed')).not.toContainText(/\dms\b/)
  await expect(running.locator(`[data-task-id="${a.id}"] progress`)).toHaveCount(0)

  host.service.control.setTaskStatus(a.id, 'failed')
  host.service.control.setTaskStatus(b.id, 'failed')
  host.service.control.setTaskStatus(c.id, 'completed')
  await host.controller.handlers['monitor:poll-now']()
  // Unseen failures are listed under "Needs you", the completion under what is new since.
  const items = app.getByRole('list', { name: /^(Needs you|New since you last looked)$/ }).locator('li')
  await expect(items).toHaveCount(3)
  await expect(app.locator(`li[data-kind="failed"][data-task-id="${a.id}"]`)).toContainText('Will fail A')
  await expect(app.locator(`li[data-kind="completed"][data-task-id="${c.id}"]`)).toContainText('Will complete C')
  // A failure says the step where it broke: the failed step, else the last one it started.
  const steps = [...host.service.control.getTask(a.id)!.steps].sort(
    (x, y) => Date.parse(x.created_at) - Date.parse(y.created_at)
  )
  const broke = steps.findLastIndex((step) => step.status === 'failed')
  const at = broke === -1 ? steps.length - 1 : broke
  expect(at).toBeGreaterThanOrEqual(0)
  await expect(app.locator(`li[data-kind="failed"][data-task-id="${a.id}"]`).getByTestId('failed-step')).toHaveText(
    `broke at Step ${at + 1}: ${steps[at]!.name}`
  )
  await expect(app.locator(`li[data-kind="completed"][data-task-id="${c.id}"]`).getByTestId('failed-step')).toHaveCount(
    0
  )
  // Open and Seen show on hover or keyboard focus, not before.
  const rowB = app.locator(`li[data-task-id="${b.id}"]`)
  const actionsShown = () =>
    rowB
      .locator('.actions')
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el).opacity
      )
  await app.mouse.move(0, 0)
  expect(await actionsShown()).toBe('0')
  await rowB.getByRole('link', { name: 'Open Will fail B' }).focus()
  await expect.poll(actionsShown).toBe('1')
  // They take the place of the row's time: none of it shows beside them.
  const time = rowB.locator('.trail')
  const timeOpacity = await time.evaluate(
    (el) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el).opacity
  )
  if (timeOpacity !== '0') {
    const [t, a] = [(await time.boundingBox())!, (await rowB.locator('.actions').boundingBox())!]
    expect(
      t.x >= a.x && t.x + t.width <= a.x + a.width,
      `the time (${t.x}–${t.x + t.width}) shows beside the actions (${a.x}–${a.x + a.width})`
    ).toBe(true)
  }
  await rowB.screenshot({ path: '/tmp/rowB.png' })
  await expect(rowB.getByRole('link', { name: 'Open Will fail B' })).toHaveAttribute(
    'href',
    `#/projects/${second}/tasks/${b.id}`
  )
  await expect.poll(async () => (await trayOf(request, host.url)).state).toBe('attention')
  expect((await trayOf(request, host.url)).menu[0]).toEqual({ kind: 'label', label: '2 newly failed' })
  await expect(app.getByTestId('nav-attention')).toContainText('2')

  // Looking at the projects acknowledges nothing.
  await openHash(app, '#/projects')
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await openHash(app, `#/projects/${first}`)
  await expect(app.locator('[data-task-id]').first()).toBeVisible()
  await openHash(app, '#/now')
  await expect(items).toHaveCount(3)

  // One item.
  await app.getByRole('button', { name: 'Mark Will fail B seen' }).click()
  await expect(items).toHaveCount(2)
  await expect(app.locator(`li[data-task-id="${b.id}"]`)).toHaveCount(0)
  await expect
    .poll(async () => (await trayOf(request, host.url)).menu[0])
    .toEqual({ kind: 'label', label: '1 newly failed' })

  // Opening an item's task sees that item only.
  await app.locator(`li[data-task-id="${a.id}"]`).getByRole('link', { name: 'Will fail A', exact: true }).click()
  // Wide (this window), the task opens beside the list: its title a heading under Now's one H1.
  await expect(
    app.getByRole('region', { name: 'Task' }).getByRole('heading', { name: 'Will fail A', level: 2 })
  ).toBeVisible()
  await expect.poll(async () => (await trayOf(request, host.url)).state).not.toBe('attention')
  await openHash(app, '#/now')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toHaveAttribute('data-task-id', c.id)

  // A new failure asks again; Mark all seen clears every item.
  const d = host.service.control.addTask(first, { name: 'Will fail D', status: 'in_progress', script: 'run-forever' })
  await host.controller.handlers['monitor:poll-now']()
  host.service.control.setTaskStatus(d.id, 'failed')
  await host.controller.handlers['monitor:poll-now']()
  await expect(items).toHaveCount(2)
  // Newest first.
  await expect(items.first()).toHaveAttribute('data-task-id', d.id)
  await expect.poll(async () => (await trayOf(request, host.url)).state).toBe('attention')
  await app.getByRole('button', { name: 'Mark all seen' }).click()
  await expect(app.getByTestId('nothing-new')).toBeVisible()
  await expect.poll(async () => (await trayOf(request, host.url)).state).not.toBe('attention')
  await expect(app.getByTestId('nav-attention')).toHaveCount(0)
  const attention = host.controller.getState().projects.map((p) => p.attention)
  expect(attention.every((x) => x.failedTaskIds.length === 0 && !x.budgetCrossed)).toBe(true)
})

test('an account-wide budget over its limit asks in the window’s badge as it asks in the tray', async ({
  app,
  host,
  request
}) => {
  await host.controller.handlers['demo:start']()
  const [first] = host.controller.getState().projects.map((p) => p.watched.projectId)
  if (!first) throw new Error('the demo has no project')
  const task = host.service.control.addTask(first, { name: 'Costly', status: 'in_progress', script: 'run-forever' })
  host.service.control.setTaskTotalPrice(task.id, 25)
  await host.controller.handlers['monitor:poll-now']()
  await openHash(app, '#/now')
  await expect(app.getByTestId('nothing-new')).toBeVisible()
  await expect(app.getByTestId('nav-attention')).toHaveCount(0)

  // The whole account's limit: no project's item to mark seen, so it asks while its period lasts.
  await host.controller.handlers['budget:save']({
    budget: { projectId: null, period: 'total', limitUsd: 20, warnRatio: 0.8 }
  })
  await host.controller.handlers['monitor:poll-now']()
  await expect.poll(() => host.controller.getState().budgets.map((b) => b.state)).toEqual(['over'])
  await expect.poll(async () => (await trayOf(request, host.url)).state).toBe('attention')
  await expect(app.getByTestId('nav-attention')).toContainText('1')
})
