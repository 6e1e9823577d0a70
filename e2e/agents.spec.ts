// Accounts of other services in the window, against the GitHub and Jules fakes over real HTTP: each added through the
// window, Now listing what waits for you first, a plan approved from its task, and a task the service answers only on
// its own page opened there.
import type { Page } from '@playwright/test'
import type { AgentFakeKind } from '../src/reference-service/agent-fake'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import { DEFAULT_WINDOW, expectScreenAccessible, invoke, openHash } from './window.helpers'

// The fakes' clocks stand still: each task holds the state its script reached when it was made.
test.use({ hostOptions: { service: { manualClock: true } } })

/** The name the app gives a service (its descriptor), never written here. */
async function serviceName(page: Page, kind: AgentFakeKind): Promise<string> {
  const state = await invoke(page, 'app:get-state')
  const found = state.services.find((s) => s.kind === kind)
  if (!found) throw new Error(`the app offers no ${kind} service`)
  return found.displayName
}

/** Fills the account form shown (Setup or the Add sheet) for the fake of `kind`: its service, key and address. */
async function fillAccount(page: Page, host: TestHost, kind: AgentFakeKind, prefix: string): Promise<void> {
  const name = await serviceName(page, kind)
  await page.getByRole('radio', { name }).check()
  // The key field is the service's own, and Get a key goes to the service's key page.
  const key = page.getByLabel(`${name} API key`)
  await key.fill(host.agents[kind].apiKey)
  const state = await invoke(page, 'app:get-state')
  const service = state.services.find((s) => s.kind === kind)!
  await expect(page.getByRole('link', { name: 'Get a key' })).toHaveAttribute('href', service.keyPage)
  await page.getByRole('button', { name: /^Change the service/ }).click()
  // The address starts as the service's real one; here it is the fake's.
  const address = page.locator(`#${prefix}-url`)
  await expect(address).toHaveValue(service.defaultBaseUrl)
  await address.fill(host.agents[kind].fake.baseUrl)
}

test('each service’s account is added in the window; Now lists the waiting Jules task first; its plan is approved from the task; a GitHub task waiting for the user opens the service’s page', async ({
  app,
  host
}) => {
  await app.setViewportSize(DEFAULT_WINDOW)
  const jules = host.agents.jules.fake.control.addTask({ title: 'Add dark mode', script: 'plan', agoMs: 120_000 })
  const github = host.agents.github.fake.control.addTask({
    title: 'Fix the flaky login test',
    script: 'wait',
    agoMs: 60_000
  })
  const stateOf = (kind: AgentFakeKind, id: string): string | undefined =>
    host.agents[kind].fake.control.tasks().find((t) => t.id === id)?.state
  expect(stateOf('jules', jules.id)).toBe('AWAITING_PLAN_APPROVAL')
  expect(stateOf('github', github.id)).toBe('waiting_for_user')
  const julesName = await serviceName(app, 'jules')
  const githubName = await serviceName(app, 'github')

  // First run: a Jules account, from the service picker.
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  await fillAccount(app, host, 'jules', 'setup')
  await app.getByRole('button', { name: 'Connect' }).click()
  await expect(app.getByRole('heading', { name: 'Now', level: 1 })).toBeVisible()

  // Settings → Accounts → Add account…: a GitHub account.
  await openHash(app, '#/settings')
  await app.getByRole('button', { name: 'Add account…' }).click()
  const sheet = app.getByRole('dialog', { name: 'Add an account' })
  await expect(sheet).toBeVisible()
  await fillAccount(app, host, 'github', 'add')
  await sheet.getByRole('button', { name: 'Add account' }).click()
  await expect(sheet).toHaveCount(0)
  const accounts = app.getByRole('list', { name: 'Accounts' })
  await expect(accounts.getByRole('img', { name: julesName })).toBeVisible()
  await expect(accounts.getByRole('img', { name: githubName })).toBeVisible()
  const state = await invoke(app, 'app:get-state')
  expect(state.connections.map((c) => c.service).sort()).toEqual(['github', 'jules'])

  // Now: what waits for you first, the Jules plan (waiting longest) at the top, each row saying what it asks.
  await invoke(app, 'monitor:poll-now')
  await openHash(app, '#/now')
  const needs = app.getByRole('list', { name: 'Needs you' }).locator('li')
  await expect(needs).toHaveCount(2)
  await expect(needs.first()).toHaveAttribute('data-task-id', jules.id)
  await expect(needs.first().getByTestId('agent-asks')).toHaveText('Approve the plan')
  await expect(needs.first().getByRole('img', { name: julesName })).toBeVisible()
  await expect(needs.nth(1)).toHaveAttribute('data-task-id', github.id)
  await expect(needs.nth(1).getByTestId('agent-asks')).toHaveText('Answer a question')
  await expectScreenAccessible(app, 'Now, with tasks of other services waiting', needs.first())

  // The Jules task: its plan, and Approve plan through a confirm sheet; the fake's session moves on.
  await needs.first().getByRole('link', { name: 'Add dark mode', exact: true }).click()
  await expect(app.getByRole('heading', { name: 'Add dark mode', level: 1 })).toBeVisible()
  await expect(app.getByTestId('agent-waiting')).toContainText('Approve the plan')
  await app.getByRole('button', { name: 'Approve plan' }).click()
  const confirm = app.getByRole('dialog', { name: 'Approve the plan?' })
  await expect(confirm).toBeVisible()
  await expectScreenAccessible(app, 'the approve sheet', confirm)
  await confirm.getByRole('button', { name: 'Approve plan' }).click()
  await expect(confirm).toHaveCount(0)
  await expect
    .poll(() => host.agents.jules.fake.control.tasks().find((t) => t.id === jules.id)?.state)
    .not.toBe('AWAITING_PLAN_APPROVAL')
  await expect(app.getByTestId('agent-waiting')).toHaveCount(0)

  // The GitHub task: the service takes no answer from here, so one button opens its page at the task.
  await app.getByRole('link', { name: 'Back to Now' }).click()
  await expect(app.getByRole('list', { name: 'Needs you' }).locator('li')).toHaveCount(1)
  await app.getByRole('link', { name: 'Fix the flaky login test', exact: true }).click()
  await expect(app.getByRole('heading', { name: 'Fix the flaky login test', level: 1 })).toBeVisible()
  const task = (await invoke(app, 'app:get-state')).agentTasks.find((t) => t.id === github.id)!
  await expect(app.getByRole('button', { name: 'Approve plan' })).toHaveCount(0)
  await expect(app.getByRole('button', { name: 'Reply…' })).toHaveCount(0)
  await app
    .getByTestId('agent-waiting')
    .getByRole('button', { name: `Open on ${githubName}` })
    .click()
  await expect.poll(() => host.records.opened).toEqual([task.waiting?.where ?? task.links.page])
  await expectScreenAccessible(app, 'a GitHub task waiting for the user', app.getByTestId('agent-waiting'))
})

test('a reply is written in its sheet: an empty one is refused there, a sent one reaches the service', async ({
  app,
  host
}) => {
  await app.setViewportSize(DEFAULT_WINDOW)
  const jules = host.agents.jules.fake.control.addTask({ title: 'Localise the form', script: 'ask', agoMs: 120_000 })
  expect(host.agents.jules.fake.control.tasks().find((t) => t.id === jules.id)?.state).toBe('AWAITING_USER_FEEDBACK')
  const { fake, apiKey } = host.agents.jules
  await invoke(app, 'connection:save', {
    connection: { name: 'Work', baseUrl: fake.baseUrl, publishingDomain: '', service: 'jules' },
    apiKey
  })
  await invoke(app, 'monitor:poll-now')
  await openHash(app, '#/now')
  await app.getByRole('link', { name: 'Localise the form', exact: true }).click()
  await expect(app.getByTestId('agent-waiting')).toContainText('Answer a question')
  // Keyboard: Reply… opens the sheet with focus inside it.
  await app.getByRole('button', { name: 'Reply…' }).focus()
  await app.keyboard.press('Enter')
  const sheet = app.getByRole('dialog', { name: /^Reply to / })
  await expect(sheet).toBeVisible()
  await sheet.getByRole('button', { name: 'Send' }).click()
  await expect(sheet.getByText('Write your reply first.')).toBeVisible()
  await expectScreenAccessible(app, 'the reply sheet, refused', sheet)
  await sheet.getByLabel('Your reply').fill('Use British English throughout.')
  await sheet.getByRole('button', { name: 'Send' }).click()
  await expect(sheet).toHaveCount(0)
  await expect(app.getByTestId('announcer')).toContainText('Reply sent')
  await expect
    .poll(() => host.agents.jules.fake.control.tasks().find((t) => t.id === jules.id)?.state)
    .not.toBe('AWAITING_USER_FEEDBACK')
})

test('a Devin session waiting for approval is first on Now and is answered from the window with a reply', async ({
  app,
  host
}) => {
  await app.setViewportSize(DEFAULT_WINDOW)
  const devin = host.agents.devin.fake.control
  devin.addTask({ title: 'Bump the linter', state: 'working' })
  const asks = devin.addTask({ title: 'Rotate the staging credentials', state: 'waiting_for_approval' })
  const { fake, apiKey } = host.agents.devin
  await invoke(app, 'connection:save', {
    connection: { name: 'Cognition', baseUrl: fake.baseUrl, publishingDomain: '', service: 'devin' },
    apiKey
  })
  await invoke(app, 'monitor:poll-now')
  await openHash(app, '#/now')
  const first = app.getByRole('list', { name: 'Needs you' }).locator('li').first()
  await expect(first).toContainText('Rotate the staging credentials')
  await expect(first).toContainText('Cognition')
  await first.getByRole('link', { name: 'Rotate the staging credentials', exact: true }).click()
  await expect(app.getByTestId('agent-waiting')).toBeVisible()
  // Devin offers a reply, not an approval: the window shows only what the service offers.
  await expect(app.getByRole('button', { name: 'Approve plan' })).toHaveCount(0)
  await app.getByRole('button', { name: 'Reply…' }).click()
  const sheet = app.getByRole('dialog', { name: /^Reply to / })
  await sheet.getByLabel('Your reply').fill('Approved: rotate them tonight.')
  await sheet.getByRole('button', { name: 'Send' }).click()
  await expect(sheet).toHaveCount(0)
  await expect.poll(() => devin.tasks().find((t) => t.id === asks.id)?.state).not.toBe('waiting_for_approval')
})
