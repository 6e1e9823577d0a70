import type { Page } from '@playwright/test'
import { openSettings } from '../src/core/settings/store'
import { DEFAULT_SERVICE_URL } from '../src/shared/base-url'
import { expect, test } from './support/fixtures'
import { atSize, DEFAULT_WINDOW, openHash, WIDE_WINDOW } from './window.helpers'

/** The service line of the first run ("Workser · Change"): Change shows its name and address. */
async function changeService(app: Page): Promise<void> {
  await app.getByRole('button', { name: 'Change the service' }).click()
  await expect(app.getByLabel('Service address (base URL)')).toBeFocused()
}

test('first run: the key first, the service as one line, the demo under Connect; no publishing domain asked', async ({
  app,
  host
}) => {
  // The tray window's own size: wide, the first run is laid out as a pane (checked at the end).
  await app.setViewportSize(DEFAULT_WINDOW)
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  const form = app.locator('form')
  // The service is chosen first, Workser's chosen (every service the app offers, by its name); then the key is the
  // first field; the name and address are one line until changed.
  const offered = host.controller.getState().services.map((s) => s.displayName)
  await expect(form.getByRole('group', { name: 'Service' }).getByRole('radio')).toHaveCount(offered.length)
  await expect(form.getByRole('radio', { name: offered[0] })).toBeChecked()
  await expect(form.locator('input:not([type="radio"])').first()).toHaveAttribute('id', 'setup-key')
  await expect(app.getByTestId('setup-service')).toHaveText(/Name\s*Workser\s*·\s*Change/)
  await expect(app.getByLabel('Service address (base URL)')).toHaveCount(0)
  await expect(app.getByLabel('Publishing domain')).toHaveCount(0)
  // The key field says what goes in it; Get a key goes to the service's own page (its descriptor's key page).
  await expect(app.getByLabel('API key')).toHaveAttribute('placeholder', 'Paste your API key')
  const first = host.controller.getState().services[0]!
  await expect(app.getByRole('link', { name: 'Get a key' })).toHaveAttribute('href', first.keyPage)
  // Tab order: key, its Paste button and Get a key, Change, Connect, then Try the demo, right under it.
  await app.getByLabel('API key').focus()
  for (const [role, name] of [
    ['button', 'Paste the key'],
    ['link', 'Get a key'],
    ['button', 'Change the service'],
    ['button', 'Try the demo']
  ] as const) {
    await app.keyboard.press('Tab')
    await expect(app.getByRole(role, { name })).toBeFocused()
  }
  // Connect waits for a key (disabled, so out of the tab order until then).
  await expect(app.getByRole('button', { name: 'Connect' })).toBeDisabled()
  const connect = await app.getByRole('button', { name: 'Connect' }).boundingBox()
  const demo = await app.getByRole('button', { name: 'Try the demo' }).boundingBox()
  expect(demo!.y).toBeGreaterThan(connect!.y)
  expect(demo!.y - (connect!.y + connect!.height)).toBeLessThan(40)
  // No card floating in an empty window: the first run fills it, Connect and the demo at its foot.
  const window = app.viewportSize()!
  expect(demo!.y + demo!.height).toBeGreaterThan(window.height * 0.75)
  await expect(app.locator('.card')).toHaveCount(0)
  // Wide, a first-run pane: what it is beside the key, and Connect right under the form, not at the window's foot.
  await atSize(app, WIDE_WINDOW, async () => {
    const intro = (await app.getByRole('heading', { name: 'Welcome to Agent Tray' }).boundingBox())!
    const key = (await app.getByLabel('API key').boundingBox())!
    const wideConnect = (await app.getByRole('button', { name: 'Connect' }).boundingBox())!
    expect(key.x).toBeGreaterThan(intro.x + intro.width)
    expect(wideConnect.y + wideConnect.height).toBeLessThan(WIDE_WINDOW.height / 2)
  })
})

test('first run: Paste puts the clipboard’s key in the field (read by the app: the window has no clipboard), Connect then takes it', async ({
  app,
  host
}) => {
  const key = app.getByLabel('API key')
  const connect = app.getByRole('button', { name: 'Connect' })
  await expect(connect).toBeDisabled()
  host.records.clipboard.push(`  ${host.serviceApiKey}\n`)
  await app.getByRole('button', { name: 'Paste the key' }).click()
  await expect(key).toHaveValue(host.serviceApiKey)
  await expect(key).toBeFocused()
  await expect(connect).toBeEnabled()
  // More than a key: refused with the reason, the field left as it was.
  host.records.clipboard.push('two\nlines')
  await app.getByRole('button', { name: 'Paste the key' }).click()
  await expect(app.getByText('more than one line of text')).toBeVisible()
  await expect(key).toHaveValue(host.serviceApiKey)
  expect(host.log.join('\n')).not.toContain(host.serviceApiKey)
})

test('first run: the form checks what is typed, saves the connection and never keeps the key', async ({
  app,
  host
}) => {
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  // Only the key missing: Connect waits for it, and the service stays one line.
  await expect(app.getByRole('button', { name: 'Connect' })).toBeDisabled()
  await app.getByLabel('API key').fill('   ')
  await expect(app.getByRole('button', { name: 'Connect' })).toBeDisabled()
  await expect(app.getByLabel('Service address (base URL)')).toHaveCount(0)

  // The real service is offered, prefilled and editable.
  await app.getByLabel('API key').fill('typed before the change')
  await changeService(app)
  await expect(app.getByLabel('Service address (base URL)')).toHaveValue(DEFAULT_SERVICE_URL)
  await expect(app.getByLabel('Name', { exact: true })).toHaveValue('Workser')
  await app.getByLabel('Name', { exact: true }).fill('')
  await app.getByRole('button', { name: 'Connect' }).click()
  await expect(app.getByText('Give the connection a name.')).toBeVisible()
  // Nothing typed is lost by a refusal (the key is cleared only once it was sent).
  await expect(app.getByLabel('API key')).toHaveValue('typed before the change')

  await app.getByLabel('Name', { exact: true }).fill('Reference')
  await app.getByLabel('Service address (base URL)').fill(`${host.service.url}/`)
  await app.getByLabel('API key').fill(host.serviceApiKey)
  await app.getByRole('button', { name: 'Connect' }).click()

  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await expect(app.getByText('No watched projects yet')).toBeVisible()
  expect(await app.content()).not.toContain(host.serviceApiKey)
  const state = await app.evaluate(() =>
    (globalThis as unknown as { agentTray: { 'app:get-state': () => Promise<unknown> } }).agentTray['app:get-state']()
  )
  expect(JSON.stringify(state)).not.toContain(host.serviceApiKey)
  expect(JSON.stringify(state)).toContain(host.service.url)

  await app.getByRole('link', { name: 'Settings' }).click()
  const account = app.locator('[data-connection-id]')
  await expect(account).toContainText('key stored')
  // The publishing domain lives in Settings: the account's Edit form sets it.
  await account.getByRole('button', { name: 'Actions for Reference' }).click()
  await app.getByRole('menuitem', { name: 'Edit' }).click()
  await app.getByLabel('Publishing domain').fill('Not a domain')
  await app.getByRole('dialog').getByRole('button', { name: 'Save connection' }).click()
  await expect(app.getByText('Enter a domain like apps.example.com, without https://.')).toBeVisible()
  await expect(app.getByLabel('Publishing domain')).toHaveValue('Not a domain')
  await app.getByLabel('Publishing domain').fill(host.service.publishingDomain)
  await app.getByRole('dialog').getByRole('button', { name: 'Save connection' }).click()
  await expect(app.getByRole('dialog')).toHaveCount(0)
  await expect(account).toContainText(`sites on ${host.service.publishingDomain}`)
  expect(host.controller.getState().connections[0]?.publishingDomain).toBe(host.service.publishingDomain)
})

test('first run: the demo opens the demo projects', async ({ app }) => {
  await app.getByRole('button', { name: 'Try the demo' }).click()
  await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()
  await expect(app.getByRole('link', { name: 'Portfolio site', exact: true })).toBeVisible()
  await expect(app.getByRole('link', { name: 'Team standup board', exact: true })).toBeVisible()
  await expect(app.locator('header')).toContainText('Demo')
})

test('a plain-http address to another machine is refused inline with the reason, and nothing is saved', async ({
  app,
  host
}) => {
  await changeService(app)
  await app.getByLabel('Name', { exact: true }).fill('Plain')
  await app.getByLabel('Service address (base URL)').fill('http://agents.example.com')
  await app.getByLabel('API key').fill(host.serviceApiKey)
  await app.getByRole('button', { name: 'Connect' }).click()
  await expect(app.getByText(/must use https: plain http would send the API key in clear text/)).toBeVisible()
  expect(host.controller.getState().connections).toEqual([])
})

test('moving a saved connection to another host asks for its key again', async ({ app, host }) => {
  await host.controller.handlers['connection:save']({
    connection: { name: 'Reference', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  await app.reload()
  await app.getByRole('link', { name: 'Settings' }).click()
  await app.getByRole('button', { name: 'Actions for Reference' }).click()
  await app.getByRole('menuitem', { name: 'Edit' }).click()
  const url = app.getByLabel('Service address (base URL)')
  await url.fill(host.service.url.replace('127.0.0.1', 'localhost'))
  await expect(app.getByText('The address now points to another host: enter the key again')).toBeVisible()
  await app.getByRole('button', { name: 'Save connection' }).click()
  await expect(app.getByText('Enter the API key.')).toBeVisible()
  expect(host.controller.getState().connections[0]?.baseUrl).toBe(host.service.url)
})

test('a stored plain-http connection is kept and marked in Settings', async ({ app, host }) => {
  await host.controller.handlers['connection:save']({
    connection: { name: 'Reference', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  const settings = await openSettings({ dir: host.settingsDir })
  await settings.update((draft) => {
    draft.connections.push({ id: 'old', name: 'Old plain', baseUrl: 'http://agents.example.com', publishingDomain: '' })
    draft.watched.old = []
  })
  await app.reload()
  await app.getByRole('link', { name: 'Settings' }).click()
  const old = app.locator('[data-connection-id="old"]')
  await expect(old.getByTestId('connection-problem')).toContainText('Not used until fixed')
  await expect(old.getByTestId('connection-problem')).toContainText('must use https')
})

test('a connection saved but not made active says so on the setup screen, and stays there', async ({ app, host }) => {
  await host.controller.handlers['connection:save']({
    connection: { name: 'First', baseUrl: host.service.url, publishingDomain: '' },
    apiKey: host.serviceApiKey
  })
  await app.reload()
  await openHash(app, '#/setup')
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  // Between the save and the switch to it, the connection goes (removed elsewhere, e.g. by the
  // command): the switch fails with the app's own error, which must be shown, not dropped.
  await app.route(
    (url) => decodeURIComponent(url.pathname).endsWith('/__ipc/invoke/connection:save'),
    async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { ok: boolean; value?: { id: string } }
      if (body.ok && body.value) await host.controller.handlers['connection:remove']({ connectionId: body.value.id })
      await route.fulfill({ response, json: body })
    }
  )
  await changeService(app)
  await app.getByLabel('Name', { exact: true }).fill('Second')
  await app.getByLabel('Service address (base URL)').fill(host.service.url)
  await app.getByLabel('API key').fill(host.serviceApiKey)
  await app.getByRole('button', { name: 'Connect' }).click()

  await expect(app.getByTestId('setup-activate-failed')).toContainText(
    'Connection Second is saved, but could not be made the active one.'
  )
  const alert = app.getByRole('alert').filter({ has: app.getByText('Details') })
  await alert.getByText('Details').click()
  await expect(alert.getByText(/There is no connection with id "c-/)).toBeVisible()
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  expect(host.controller.getState().activeConnectionId).toBe(host.controller.getState().connections[0]?.id)
  expect(host.controller.getState().connections.map((c) => c.name)).toEqual(['First'])
})
