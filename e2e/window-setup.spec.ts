import { expect, test } from './support/fixtures'

test('first run: the form checks what is typed, saves the connection and never keeps the key', async ({ app, host }) => {
  await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
  await app.getByRole('button', { name: 'Connect' }).click()
  await expect(app.getByText('Give the connection a name.')).toBeVisible()
  await expect(app.getByText('Enter the API key.')).toBeVisible()

  await app.getByLabel('Name', { exact: true }).fill('Reference')
  await app.getByLabel('Service address (base URL)').fill(`${host.service.url}/`)
  await app.getByLabel('API key').fill(host.serviceApiKey)
  await app.getByLabel('Publishing domain').fill(host.service.publishingDomain)
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
  await expect(app.locator('[data-connection-id]')).toContainText('key stored')
})

test('first run: the demo opens the demo projects', async ({ app }) => {
  await app.getByRole('button', { name: 'Try the demo' }).click()
  await expect(app.getByRole('link', { name: 'Recipe Box' })).toBeVisible()
  await expect(app.getByRole('link', { name: 'Portfolio site' })).toBeVisible()
  await expect(app.getByRole('link', { name: 'Team standup board' })).toBeVisible()
  await expect(app.locator('header')).toContainText('Demo')
})
