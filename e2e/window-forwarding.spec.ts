// Settings → Forwarding in Chromium, against the app's composition on the test host and a loopback
// receiver: paste a URL (a password field, its kind recognised and named; a JSON webhook's signing
// secret made and shown once), send a test, see the last delivery, see a
// refusal's reason, pause, remove; whether you are seen as away follows the lock and the idle time;
// each state checked once by expectScreenAccessible (all of axe in light at 420 × 640, contrast in
// dark, the layout wide): the flow itself runs once, as the theme changes colours only.
import type { Page } from '@playwright/test'
import { verifySignature } from '../src/core/forward/sign'
import { ANSWERS, type Receiver, startReceiver } from '../src/core/forward/test-receivers'
import { expect, test } from './support/fixtures'
import { connect, DEFAULT_WINDOW, expectScreenAccessible, expectShownWhole, invoke, openHash } from './window.helpers'

const TOKEN = 'e2eT0kenPart-4c3b2a190f8e'
let receiver: Receiver

test.beforeEach(async () => {
  receiver = await startReceiver(ANSWERS.ok())
})
test.afterEach(async () => {
  await receiver.close()
})

const section = (app: Page) => app.locator('section.forwarding')

async function openForwarding(app: Page): Promise<void> {
  await openHash(app, '#/settings')
  await expect(app.getByRole('heading', { name: 'Forwarding', level: 2 })).toBeVisible()
  await app.getByRole('heading', { name: 'Forwarding', level: 2 }).scrollIntoViewIfNeeded()
}

/** The row's actions show on hover and focus: reach them as a mouse user does. */
async function rowAction(app: Page, targetName: string, button: string): Promise<void> {
  const row = section(app).locator('li.list-row').filter({ hasText: targetName })
  await row.hover()
  await row.getByRole('button', { name: button }).click()
}

test.use({ colorScheme: 'light', viewport: DEFAULT_WINDOW })

test('add by pasting a URL, test it, see the delivery and a refusal, pause, remove; away follows the lock and idle time', async ({
  app,
  host,
  request
}) => {
  await connect(app, host)
  await openForwarding(app)
  const presence = section(app).getByTestId('presence')
  await expect(presence).toContainText('You are seen as at this computer')
  await expect(section(app)).toContainText('No targets yet.')

  await section(app).getByRole('button', { name: 'Add target' }).click()
  const urlField = app.getByLabel('Target URL')
  await urlField.fill(`${receiver.url}/hooks/${TOKEN}`)
  // Named as it is pasted, before it is added.
  await expect(app.locator('#forward-url-kind')).toHaveText('Recognised: JSON webhook')
  // The URL holds a token: a password field, shown only while asked.
  await expect(urlField).toHaveAttribute('type', 'password')
  await expect(urlField).toHaveAttribute('autocomplete', 'off')
  await expect(urlField).toHaveAttribute('spellcheck', 'false')
  await app.getByRole('button', { name: 'Show URL' }).click()
  await expect(urlField).toHaveAttribute('type', 'text')
  await expect(app.getByRole('button', { name: 'Hide URL' })).toHaveAttribute('aria-pressed', 'true')
  await app.getByRole('button', { name: 'Hide URL' }).click()
  await expect(urlField).toHaveAttribute('type', 'password')
  await expect(app.getByRole('button', { name: 'Show URL' })).toHaveAttribute('aria-pressed', 'false')
  // Waiting for you is on by default; this target is for endings and budgets only.
  await app.getByRole('checkbox', { name: 'Tasks waiting for you' }).uncheck()
  await app.getByRole('checkbox', { name: 'Completed tasks' }).check()
  await app.getByRole('radio', { name: 'Always' }).check()
  await expectScreenAccessible(app, 'forwarding form', app.getByLabel('Target URL'))
  await app.getByRole('dialog').getByRole('button', { name: 'Add target', exact: true }).click()
  await expect(app.getByRole('dialog')).toHaveCount(0)

  // The kind is recognised and named; the row says kind and host (its name, by default), events and when; no token
  // anywhere.
  const host127 = `127.0.0.1:${receiver.port}`
  const row = section(app)
    .locator('li.list-row')
    .filter({ hasText: `JSON webhook ${host127}` })
  await expect(row.locator('.title')).toHaveText(`JSON webhook ${host127}`)
  await expect(row.locator('.meta')).toHaveText('failed, completed, budget · always')
  await expect(row.getByTestId('last-delivery')).toHaveCount(0)
  await expect(row.getByRole('img', { name: 'Nothing sent yet' })).toBeVisible()
  await expect(app.locator('body')).not.toContainText(TOKEN)
  // Added with no signing secret: one was made, shown here once, until Done.
  const made = section(app).getByTestId('generated-secret')
  await expect(made).toContainText(`Signing secret for 'JSON webhook ${host127}'`)
  await expect(made).toContainText('It will not be shown again.')
  const secret = await made.getByRole('textbox', { name: `Signing secret for JSON webhook ${host127}` }).inputValue()
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
  await expectScreenAccessible(app, 'forwarding, a signing secret made', made)
  await made.getByRole('button', { name: 'Done' }).click()
  await expect(made).toHaveCount(0)
  await expect(app.locator('body')).not.toContainText(secret)

  await rowAction(app, 'JSON webhook', `Send a test to JSON webhook ${host127}`)
  await expect(row.getByTestId('last-delivery')).toContainText('Delivered')
  await expect(row.getByRole('img', { name: 'Delivered' })).toBeVisible()
  // Beside the delivery's time at 420 px the summary is shown whole on its one line, not cut off.
  const summary = row.locator('.meta')
  await expect(summary).toHaveText('failed, completed, budget · always')
  await expectShownWhole(summary)
  expect(receiver.received).toHaveLength(1)
  expect(receiver.received[0]!.path).toBe(`/hooks/${TOKEN}`)
  expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: 'test', title: 'Agent Tray test' })
  expect(
    verifySignature(
      receiver.received[0]!.body,
      secret,
      receiver.received[0]!.headers['x-agent-tray-signature'] as string
    )
  ).toBe(true)

  // A new signing secret from the row's menu: shown once, and the next request is signed with it alone.
  await row.hover()
  await row.getByRole('button', { name: `More for JSON webhook ${host127}` }).click()
  await app.getByRole('menuitem', { name: 'New signing secret' }).click()
  await expect(made).toContainText('It will not be shown again.')
  const next = await made.getByRole('textbox', { name: `Signing secret for JSON webhook ${host127}` }).inputValue()
  expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(next).not.toBe(secret)
  await made.getByRole('button', { name: 'Done' }).click()
  await rowAction(app, 'JSON webhook', `Send a test to JSON webhook ${host127}`)
  await expect.poll(() => receiver.received.length).toBe(2)
  const signed = receiver.received.at(-1)!
  expect(verifySignature(signed.body, next, signed.headers['x-agent-tray-signature'] as string)).toBe(true)
  expect(verifySignature(signed.body, secret, signed.headers['x-agent-tray-signature'] as string)).toBe(false)

  // The receiver refuses the next one: its reason shows on the row.
  receiver.script.push(ANSWERS.slackGone())
  await rowAction(app, 'JSON webhook', `Send a test to JSON webhook ${host127}`)
  await expect(row.getByTestId('target-error')).toHaveText('HTTP 404: no_service')
  await expect(row.getByRole('img', { name: 'Last send failed' })).toBeVisible()

  // Locked: away; unlocked and idle past the set time: away; input again: back.
  await request.post(`${host.url}__host/control/power`, { data: { event: 'lock-screen' } })
  await expect(presence).toHaveText('You are seen as away: the screen is locked.')
  await request.post(`${host.url}__host/control/idle`, { data: { seconds: 360 } })
  await request.post(`${host.url}__host/control/power`, { data: { event: 'unlock-screen' } })
  await expect(presence).toHaveText('You are seen as away: no input for 6 minutes.')
  await request.post(`${host.url}__host/control/idle`, { data: { seconds: 0 } })
  await request.post(`${host.url}__host/control/power`, { data: { event: 'lock-screen' } })
  await request.post(`${host.url}__host/control/power`, { data: { event: 'unlock-screen' } })
  await expect(presence).toContainText('You are seen as at this computer')

  await expectScreenAccessible(app, 'forwarding', row)

  // Pause through the row's menu, then remove.
  await row.hover()
  await row.getByRole('button', { name: `More for JSON webhook ${host127}` }).click()
  await app.getByRole('menuitem', { name: 'Pause' }).click()
  await expect(row.getByRole('img', { name: 'Paused' })).toBeVisible()
  await expect(row).toContainText('Paused · failed, completed, budget')
  expect((await invoke(app, 'forward:list'))[0]).toMatchObject({ paused: true, lastError: 'HTTP 404: no_service' })

  // Edit is a sheet: what it gets and when, Cancel and Save at its foot.
  await row.hover()
  await row.getByRole('button', { name: `More for JSON webhook ${host127}` }).click()
  await app.getByRole('menuitem', { name: 'Edit…' }).click()
  const sheet = app.getByRole('dialog', { name: `Edit JSON webhook ${host127}` })
  await expect(sheet.getByRole('checkbox', { name: 'Completed tasks' })).toBeChecked()
  await sheet.getByRole('checkbox', { name: 'Completed tasks' }).uncheck()
  await sheet.getByRole('radio', { name: /Only when I am away/ }).check()
  await sheet.getByRole('button', { name: 'Save' }).click()
  await expect(sheet).toHaveCount(0)
  await expect(row.locator('.meta')).toHaveText('Paused · failed, budget · when away')
  expect((await invoke(app, 'forward:list'))[0]).toMatchObject({ on: ['failed', 'budget'], when: 'away' })

  await row.hover()
  await row.getByRole('button', { name: `More for JSON webhook ${host127}` }).click()
  await app.getByRole('menuitem', { name: 'Remove' }).click()
  await expect(section(app)).toContainText('No targets yet.')
  expect(await invoke(app, 'forward:list')).toEqual([])
})

test('a URL the app refuses is said why, and the form keeps it', async ({ app, host }) => {
  await connect(app, host)
  await openForwarding(app)
  await section(app).getByRole('button', { name: 'Add target' }).click()
  await app.getByLabel('Target URL').fill('https://hooks.slack.com/services/T0/B0/abc')
  await expect(app.locator('#forward-url-kind')).toHaveText('Recognised: Slack')
  await app.getByLabel('Target URL').fill('ftp://example.com/in')
  await expect(app.locator('#forward-url-kind')).toHaveText('Not a target URL')
  await app.getByLabel('Target URL').fill(`http://example.com/hooks/${TOKEN}`)
  await app.getByRole('dialog').getByRole('button', { name: 'Add target', exact: true }).click()
  await expect(section(app).locator('.alert.error')).toContainText('must use https')
  await expect(section(app).locator('.alert.error')).not.toContainText(TOKEN)
  await expect(app.getByLabel('Target URL')).toHaveValue(`http://example.com/hooks/${TOKEN}`)
})
