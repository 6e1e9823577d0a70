// Two accounts at once, end to end: two reference services with different keys, both watched by
// the app's composition; each change is notified once and names its account, the tray lists each
// account's projects under its name, and the window opens a project of either.
import { type ReferenceService, startReferenceService } from '../src/reference-service'
import { expect, test } from './support/fixtures'

test.use({ hostOptions: { service: { manualClock: true } } })

let second: ReferenceService
test.beforeEach(async () => {
  second = await startReferenceService({ apiKey: 'second-account-key', port: 0, seed: 9, manualClock: true })
})
test.afterEach(async () => {
  await second.close()
})

test('two connections are watched at once; each change is notified once, labelled with its account', async ({
  app,
  host
}) => {
  const work = await host.controller.handlers['connection:save']({
    connection: { name: 'Work', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  const home = await host.controller.handlers['connection:save']({
    connection: { name: 'Home', baseUrl: second.url, publishingDomain: '' },
    apiKey: 'second-account-key'
  })
  const office = host.service.control.createProject({ name: 'Office app' })
  const garden = second.control.createProject({ name: 'Garden planner' })
  const t1 = host.service.control.addTask(office.id, {
    name: 'Add the login page',
    status: 'in_progress',
    script: 'run-forever'
  })
  const t2 = second.control.addTask(garden.id, { name: 'Plant calendar', status: 'in_progress', script: 'run-forever' })
  await host.controller.handlers['project:watch']({ connectionId: work.id, projectId: office.id })
  await host.controller.handlers['project:watch']({ connectionId: home.id, projectId: garden.id })
  await host.controller.pollNow()

  host.service.control.setTaskStatus(t1.id, 'completed')
  second.control.setTaskStatus(t2.id, 'failed')
  await host.controller.pollNow()
  await host.controller.pollNow()
  await expect
    .poll(() => host.records.notifications.map((n) => n.title).sort())
    .toEqual(['Task completed · Work', 'Task failed · Home'])
  expect(host.records.notifications.find((n) => n.title.endsWith('Home'))).toMatchObject({
    connectionId: home.id,
    projectId: garden.id,
    taskId: t2.id
  })

  // The tray names each account above its projects.
  await expect
    .poll(() =>
      host.records.tray?.menu
        .filter((i) => i.kind !== 'separator')
        .map((i) => i.label)
        .slice(1, 5)
    )
    .toEqual(['Work', 'Office app', 'Home', 'Garden planner (1 failed)'])

  // The window lists both and opens the second account's project, its tasks from its own service.
  await app.reload()
  // The Now screen, shown first, has both accounts' items.
  await expect(app.locator(`li[data-kind="failed"][data-task-id="${t2.id}"]`)).toContainText('Garden planner')
  await expect(app.locator(`li[data-kind="completed"][data-task-id="${t1.id}"]`)).toContainText('Office app')
  await app.getByRole('link', { name: 'Projects', exact: true }).click()
  // Each account's projects under its name.
  await expect(app.getByRole('list', { name: 'Projects of Work' })).toContainText('Office app')
  await expect(app.getByRole('list', { name: 'Projects of Home' })).toContainText('Garden planner')
  await app.getByRole('link', { name: 'Garden planner' }).first().click()
  await expect(app.getByText('Plant calendar')).toBeVisible()
})

test('a rejected key affects its own connection only', async ({ host }) => {
  const work = await host.controller.handlers['connection:save']({
    connection: { name: 'Work', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  const home = await host.controller.handlers['connection:save']({
    connection: { name: 'Home', baseUrl: second.url, publishingDomain: '' },
    apiKey: 'second-account-key'
  })
  const office = host.service.control.createProject({ name: 'Office app' })
  const garden = second.control.createProject({ name: 'Garden planner' })
  await host.controller.handlers['project:watch']({ connectionId: work.id, projectId: office.id })
  await host.controller.handlers['project:watch']({ connectionId: home.id, projectId: garden.id })
  // The second service stops taking the key (as if it were revoked there).
  await second.close()
  second = await startReferenceService({
    apiKey: 'rotated-key',
    port: Number(new URL(second.url).port),
    seed: 9,
    manualClock: true
  })
  await host.controller.pollNow().catch(() => undefined)
  await expect
    .poll(() => host.controller.getState().projects.map((p) => [p.watched.name, p.health.state]))
    .toEqual([
      ['Office app', 'ok'],
      ['Garden planner', 'error']
    ])
  await expect
    .poll(() => host.records.tray?.menu[0])
    .toEqual({ kind: 'label', label: 'Home: 1 project cannot be reached' })
})

test('an account muted in Settings is told nothing; one paused for an hour waits; the others are told', async ({
  app,
  host
}) => {
  const work = await host.controller.handlers['connection:save']({
    connection: { name: 'Work', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  const home = await host.controller.handlers['connection:save']({
    connection: { name: 'Home', baseUrl: second.url, publishingDomain: '' },
    apiKey: 'second-account-key'
  })
  const office = host.service.control.createProject({ name: 'Office app' })
  const garden = second.control.createProject({ name: 'Garden planner' })
  const t1 = host.service.control.addTask(office.id, {
    name: 'Office task',
    status: 'in_progress',
    script: 'run-forever'
  })
  const t2 = second.control.addTask(garden.id, { name: 'Garden task', status: 'in_progress', script: 'run-forever' })
  await host.controller.handlers['project:watch']({ connectionId: work.id, projectId: office.id })
  await host.controller.handlers['project:watch']({ connectionId: home.id, projectId: garden.id })
  await host.controller.pollNow()

  await app.reload()
  await app.getByRole('link', { name: 'Settings', exact: true }).click()
  // Each account's "…" menu holds its mute and its pause (the header's pause is for all of them).
  const choose = async (account: string, item: string) => {
    await app.getByRole('button', { name: `Actions for ${account}` }).click()
    await app.getByRole('menuitem', { name: item }).click()
  }
  const homeRow = app.locator(`[data-connection-id="${home.id}"]`)
  await choose('Home', 'Mute notifications')
  await expect
    .poll(() => host.controller.getState().connections.find((c) => c.id === home.id)?.notifications.muted)
    .toBe(true)
  await expect(homeRow.getByTestId('account-meta')).toContainText('muted')
  const workRow = app.locator(`[data-connection-id="${work.id}"]`)
  await choose('Work', 'Pause notifications for an hour')
  await expect(workRow.getByTestId('account-meta')).toContainText('paused until')

  host.service.control.setTaskStatus(t1.id, 'completed')
  second.control.setTaskStatus(t2.id, 'completed')
  await host.controller.pollNow()
  await host.controller.pollNow()
  expect(host.records.notifications).toEqual([])

  // Resumed, Work is told again; Home stays muted.
  await choose('Work', 'Resume notifications')
  await expect
    .poll(() => host.controller.getState().connections.find((c) => c.id === work.id)?.notifications.pausedUntil)
    .toBeNull()
  const t3 = host.service.control.addTask(office.id, {
    name: 'Second office task',
    status: 'in_progress',
    script: 'run-forever'
  })
  const t4 = second.control.addTask(garden.id, {
    name: 'Second garden task',
    status: 'in_progress',
    script: 'run-forever'
  })
  await host.controller.pollNow()
  host.service.control.setTaskStatus(t3.id, 'failed')
  second.control.setTaskStatus(t4.id, 'failed')
  await host.controller.pollNow()
  await expect.poll(() => host.records.notifications.map((n) => n.title)).toEqual(['Task failed · Work'])
})
