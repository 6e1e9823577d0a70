// Every error state of the window, caused by the reference service's faults: a plain message and
// a way forward each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { FaultRule } from '../src/reference-service'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import { connect, expectNoViolations, invoke, openHash } from './window.helpers'

async function watchedProject(app: Page, host: TestHost, name: string): Promise<string> {
  await connect(app, host)
  const project = host.service.control.createProject({ name })
  await invoke(app, 'project:watch', { projectId: project.id })
  return project.id
}

/**
 * A project the service refuses: its actions are off, its details folded and marked as last
 * seen, and the server's own words wait behind a details button.
 */
async function expectProjectRefused(app: Page): Promise<void> {
  const actions = app.getByTestId('project-actions')
  await expect(actions.getByRole('button', { name: 'New task', exact: true })).toBeDisabled()
  await actions.getByRole('button', { name: 'More actions' }).click()
  for (const name of ['Open the agent interface', 'Edit', 'Publish']) {
    await expect(actions.getByRole('menuitem', { name, exact: true })).toBeDisabled()
  }
  await app.keyboard.press('Escape')
  await expect(actions.getByRole('menuitem')).toHaveCount(0)
  await expect(app.getByTestId('stale-note')).toBeVisible()
  // The details beside the tasks (the window is wide here) are marked as last seen, and no sheet is open.
  await expect(app.getByTestId('project-details')).toHaveClass(/\bstale\b/)
  await expect(app.getByRole('dialog')).toHaveCount(0)
  // The server's words wait behind the error line's (or the banner's) details button.
  const alert = app.locator('[role="alert"]', { has: app.getByRole('button', { name: 'Details from the server' }) })
  const raw = alert.first().locator('.detail')
  await expect(raw).toBeHidden()
  await alert.first().getByRole('button', { name: 'Details from the server' }).click()
  await expect(raw).toBeVisible()
  await expect(raw).toContainText('Server said:')
  await expect(raw).toHaveCSS(
    'font-family',
    await app.locator('body').evaluate((b) => b.ownerDocument.defaultView!.getComputedStyle(b).fontFamily)
  )
}

function faultOn(host: TestHost, projectId: string, rule: FaultRule): void {
  host.service.control.setFaults({ rules: [{ ...rule, pathPrefix: `/projects/${projectId}` }] })
}

test('loading, then empty', async ({ app, host }) => {
  await connect(app, host)
  // Not watched: nothing cached, so the window waits for the (slowed) service itself.
  const project = host.service.control.createProject({ name: 'Quiet project' })
  // A gate: the project's answer is held until the test lets it go, so axe surely sees the loading state.
  let release = (): void => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await app.route(
    (url) => decodeURIComponent(url.pathname).endsWith('/__ipc/invoke/project:get'),
    async (route) => {
      const response = await route.fetch()
      await held
      await route.fulfill({ response })
    }
  )
  await openHash(app, `#/projects/${project.id}`)
  await expect(app.getByText('Loading the project…')).toBeVisible()
  await expectNoViolations(app, 'loading')
  // Still loading after axe ran: what was checked was the loading state.
  await expect(app.getByText('Loading the project…')).toBeVisible()
  release()
  await expect(app.getByRole('heading', { name: 'Quiet project', level: 1 })).toBeVisible({ timeout: 15_000 })
  await expect(app.getByText('No tasks yet.')).toBeVisible()
  await expectNoViolations(app, 'empty')
  await expect(app.getByRole('button', { name: 'Watch', exact: true })).toBeVisible()
})

test('offline: a plain message, and a retry that works once the service is back', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Far away')
  faultOn(host, id, { kind: 'drop' })
  // The header learns it from a poll: one asked for, not the next idle one.
  await invoke(app, 'monitor:poll-now')
  await openHash(app, `#/projects/${id}`)
  // Account-wide: the banner under the bar says it, and the screen does not say it again.
  const alert = app.getByTestId('error-banner')
  await expect(alert).toContainText('Offline: the service cannot be reached')
  await expect(app.locator('header')).toContainText('Offline')
  await expect(app.locator('main [role="alert"]')).toHaveCount(0)
  await expectNoViolations(app, 'offline')
  // Try again asks for a poll now (while the service is still away, so no background poll can end it first).
  const polled = app.waitForRequest((r) => decodeURIComponent(r.url()).endsWith('/__ipc/invoke/monitor:poll-now'))
  await alert.getByRole('button', { name: 'Try again' }).click()
  await polled
  // Once the service is back, the banner goes and the screen is live again.
  host.service.control.clearFaults()
  await invoke(app, 'monitor:poll-now')
  await expect(alert).toHaveCount(0)
  await expect(app.getByRole('heading', { name: 'Far away', level: 1 })).toBeVisible()
})

test('rejected key: the way forward is fixing the key in Settings', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Locked')
  faultOn(host, id, { kind: 'error', status: 401 })
  // The account's banner learns it from a poll: one asked for, not the next idle one.
  await invoke(app, 'monitor:poll-now')
  await openHash(app, `#/projects/${id}`)
  // Account-wide: the banner under the bar says it, and the screen does not say it again.
  const alert = app.getByTestId('error-banner')
  await expect(alert).toContainText('The API key was rejected')
  await expect(app.locator('main [role="alert"]')).toHaveCount(0)
  await expectProjectRefused(app)
  await expectNoViolations(app, 'key rejected')
  await alert.getByRole('button', { name: /^Fix/ }).click()
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  // Straight to the account's edit form, its key field focused, however far down Settings it sits.
  const account = (await invoke(app, 'app:get-state')).projects.find((p) => p.watched.projectId === id)!.connectionId
  await expect(app.locator(`#edit-${account}-key`)).toBeFocused()
  await expect(app.locator(`#edit-${account}-key`)).toBeInViewport()
  await expect(app.getByText('A key is stored. Leave this empty to keep it')).toBeVisible()
})

test('project gone: stop watching it from the message', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Vanished')
  faultOn(host, id, { kind: 'error', status: 404 })
  await openHash(app, `#/projects/${id}`)
  const alert = app.locator('[data-error-kind="not_found"]').first()
  await expect(alert).toContainText('This project is gone')
  await expectProjectRefused(app)
  await expectNoViolations(app, 'project gone')
  await alert.getByRole('button', { name: 'Stop watching this project' }).click()
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await expect(app.locator(`[data-project-id="${id}"]`)).toHaveCount(0)
  expect((await invoke(app, 'app:get-state')).projects).toEqual([])
})

test('project gone, as the projects list shows it', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Vanished too')
  faultOn(host, id, { kind: 'error', status: 404 })
  await invoke(app, 'monitor:poll-now')
  await openHash(app, '#/projects')
  const card = app.locator(`[data-project-id="${id}"]`)
  await expect(card.locator('[data-error-kind="not_found"]')).toContainText('This project is gone', { timeout: 15_000 })
  await expectNoViolations(app, 'project gone, in the list')
  await card.getByRole('button', { name: 'Stop watching this project' }).click()
  await expect(card).toHaveCount(0)
})

test('rate limited: says how long to wait', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Busy')
  faultOn(host, id, { kind: 'rate_limit', retryAfterSeconds: 120 })
  await openHash(app, `#/projects/${id}`)
  const alert = app.locator('[data-error-kind="rate_limited"]').first()
  await expect(alert).toContainText('Too many requests')
  await expect(alert).toContainText('wait 2 minutes')
  // The time to try again after is behind the line's details button.
  await alert.getByRole('button', { name: /^Details/ }).click()
  await expect(alert.getByRole('note')).toBeVisible()
  await expect(alert.getByRole('note')).toContainText('You can try again after')
  await app.keyboard.press('Escape')
  await expect(alert.getByRole('note')).toBeHidden()
  await expectNoViolations(app, 'rate limited')
  host.service.control.clearFaults()
  await alert.getByRole('button', { name: 'Try again' }).click()
  await expect(app.getByRole('heading', { name: 'Busy', level: 1 })).toBeVisible()
})

test('invalid server response: named plainly, with a retry', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Garbled')
  faultOn(host, id, { kind: 'malformed' })
  await openHash(app, `#/projects/${id}`)
  const alert = app.locator('[data-error-kind="invalid_response"]').first()
  await expect(alert).toContainText('The service sent an answer Agent Tray cannot read')
  await expect(alert.getByRole('button', { name: 'Open Settings' })).toBeVisible()
  await expectNoViolations(app, 'invalid response')
  host.service.control.clearFaults()
  await alert.getByRole('button', { name: 'Try again' }).click()
  await expect(app.getByRole('heading', { name: 'Garbled', level: 1 })).toBeVisible()
})

test('a gone task offers the way back to its project', async ({ app, host }) => {
  const id = await watchedProject(app, host, 'Has no such task')
  await openHash(app, `#/projects/${id}/tasks/not-a-task`)
  const alert = app.locator('[data-error-kind="not_found"]').first()
  await expect(alert).toContainText('This task is gone')
  await expectNoViolations(app, 'task gone')
  await alert.getByRole('button', { name: 'Back to the project' }).click()
  await expect(app.getByRole('heading', { name: 'Has no such task', level: 1 })).toBeVisible()
})

test.describe('with a damaged settings file', () => {
  const settingsDir = mkdtempSync(join(tmpdir(), 'agent-tray-damaged-'))
  writeFileSync(join(settingsDir, 'config.json'), '{"version": 1, "connections": [tru')
  test.use({ hostOptions: { settingsDir } })
  test.afterAll(() => rmSync(settingsDir, { recursive: true, force: true }))

  test('the repair notice is shown once and can be dismissed', async ({ app }) => {
    const notices = app.getByRole('region', { name: 'Notices' })
    await expect(notices).toBeVisible()
    const dismiss = notices.getByRole('button', { name: /^Dismiss/ }).first()
    await dismiss.click()
    await expect(notices).toHaveCount(0)
    await app.getByRole('button', { name: 'Try the demo' }).click()
    await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()
    await expect(app.getByRole('region', { name: 'Notices' })).toHaveCount(0)
  })
})
