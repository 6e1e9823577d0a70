// Accounts of other services in the window, against the GitHub and Jules fakes over real HTTP: each added through the
// window, Now listing what waits for you first, a plan approved from its task, and a task the service answers only on
// its own page opened there; a Cursor run's tool calls arriving on the open task by its stream.
import type { Page } from '@playwright/test'
import type { AgentFakeKind } from '../src/reference-service/agent-fake'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import { DEFAULT_WINDOW, definitionOf, expectScreenAccessible, invoke, openHash } from './window.helpers'

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

// Polled once an hour: what shows on the open task between polls came by its stream.
test.describe('followed live', () => {
  test.use({
    hostOptions: {
      service: { manualClock: true },
      polling: { activeIntervalMs: 3_600_000, idleIntervalMs: 3_600_000, maxConcurrency: 4 }
    }
  })

  test('a Cursor run’s tool calls appear live on its task and survive a dropped stream', async ({
    app,
    host,
    events,
    request
  }) => {
    await app.setViewportSize(DEFAULT_WINDOW)
    const { fake, apiKey } = host.agents.cursor
    const auth = { Authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` }
    /** Moves every service's clock, the Cursor fake's with them: its run's events fall due. */
    const advance = async (ms: number) =>
      expect((await request.post(`${host.url}__host/control/advance`, { data: { ms } })).ok()).toBe(true)
    const openStreams = async () =>
      ((await (await request.get(`${fake.baseUrl}/__control/streams`, { headers: auth })).json()) as { open: number })
        .open
    // A run that keeps working: tool calls at 5 s (read_file), 12 s (edit_file) and 20 s (run_terminal_cmd).
    const agent = fake.control.addTask({ title: 'Fix the flaky upload test', script: 'run-forever' })
    await advance(3_000)
    expect(fake.control.tasks().find((t) => t.id === agent.id)?.state).toBe('RUNNING')
    const runId = (
      (await (await request.get(`${fake.baseUrl}/v1/agents/${agent.id}`, { headers: auth })).json()) as {
        latestRunId: string
      }
    ).latestRunId

    // What the app tells the window: the task's steps as each agent:steps event carries them.
    const lastEvent = async () =>
      (await events.of('agent:steps'))
        .filter((e) => e.taskId === agent.id)
        .at(-1)
        ?.steps.map((s) => s.id) ?? []

    await invoke(app, 'connection:save', {
      connection: { name: 'Cursor work', baseUrl: fake.baseUrl, publishingDomain: '', service: 'cursor' },
      apiKey
    })
    await invoke(app, 'monitor:poll-now')
    await openHash(app, '#/now')
    await app.getByRole('link', { name: 'Fix the flaky upload test', exact: true }).click()
    await expect(app.getByRole('heading', { name: 'Fix the flaky upload test', level: 1 })).toBeVisible()
    // The run is followed live: one stream open, and the screen says so in words.
    await expect.poll(openStreams).toBe(1)
    await expect(app.getByTestId('agent-live')).toHaveText('Live')

    // A tool call arrives on the stream and shows on the open screen: no reopening, no refresh.
    const rows = app.getByRole('region', { name: 'Step list' }).locator('[data-step-id]')
    await advance(2_000)
    await expect.poll(lastEvent).toContain('call-1')
    await expect(rows.filter({ hasText: 'read_file' })).toHaveCount(1)
    await expect(rows.filter({ hasText: 'read_file' })).toContainText('path=README.md')
    await expect(app.getByTestId('agent-steps-said')).toHaveText('New step: read_file')

    // The stream drops; the next tool calls still arrive (resumed after the last event), and none is shown twice.
    const dropped = await request.post(`${fake.baseUrl}/__control/runs/${runId}/drop`, { headers: auth })
    expect(((await dropped.json()) as { dropped: number }).dropped).toBe(1)
    await advance(7_000)
    await expect(rows.filter({ hasText: 'edit_file' })).toHaveCount(1)
    await advance(8_000)
    await expect(rows.filter({ hasText: 'run_terminal_cmd' })).toHaveCount(1)
    await expect.poll(openStreams).toBe(1)
    await expect(rows).toHaveCount(3)
    const ids = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-step-id')))
    expect(new Set(ids).size).toBe(3)
    for (const tool of ['read_file', 'edit_file', 'run_terminal_cmd'])
      await expect(rows.filter({ hasText: tool })).toHaveCount(1)

    // The timeline by keyboard: a step's detail opens from its row, its text shown as text.
    await rows.filter({ hasText: 'edit_file' }).focus()
    await app.keyboard.press('ArrowDown')
    await expect(rows.filter({ hasText: 'run_terminal_cmd' })).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(app.locator('#step-detail h3')).toHaveText('run_terminal_cmd')
    await expect(definitionOf(app.locator('#step-detail'), 'command')).toHaveText('npm test')
    await expectScreenAccessible(app, 'a Cursor task followed live', app.getByTestId('agent-live'))
  })
})
