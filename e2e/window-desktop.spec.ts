// What the window shows of the desktop around the app, through the app's own composition: the
// update states (driven through the host's stand-in for electron-updater and the app's own update
// machine), 'Restart to update' in the window and the tray, About and 'Copy diagnostics', deep
// links opening the window on a project or a task, the window's own errors reaching the log, and
// the notes a desktop needs (the Linux tray, the Wayland shortcut).
import type { APIRequestContext, Page } from '@playwright/test'
import { TRAY_HIDDEN_NOTE } from '../src/core/desktop/tray-host'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import { connect, expectNoViolations, invoke, openHash } from './window.helpers'

test.use({ colorScheme: 'light', hostOptions: { service: { manualClock: true } } })

const control = (request: APIRequestContext, host: TestHost, route: string, data: unknown) =>
  request.post(`${host.url}__host/control/${route}`, { data }).then((r) => expect(r.ok(), route).toBe(true))

async function openSettings(app: Page, host: TestHost): Promise<void> {
  await connect(app, host)
  await openHash(app, '#/settings')
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
}

test('update states: checking, found, downloading with progress, ready; Restart to update in the window and the tray', async ({
  app,
  host,
  request
}) => {
  await openSettings(app, host)
  const status = app.getByTestId('update-status')
  await expect(status.getByRole('status')).toHaveText('Updates: not checked yet')

  await status.getByRole('button', { name: 'Check for updates', exact: true }).click()
  await expect(status.getByRole('status')).toHaveText('Checking for updates…')
  expect(host.updater.calls.checks).toBe(1)
  await expect(status.getByRole('button', { name: 'Check for updates', exact: true })).toBeDisabled()

  await control(request, host, 'update-event', { event: 'update-available', version: '1.2.0' })
  await expect(status.getByRole('status')).toHaveText('Version 1.2.0 found, downloading…')
  // Downloaded in the background: the app asked for it without the user.
  await expect.poll(() => host.updater.calls.downloads).toBe(1)

  await control(request, host, 'update-event', {
    event: 'download-progress',
    percent: 42.5,
    transferred: 425,
    total: 1000
  })
  await expect(status.getByRole('status')).toHaveText('Downloading version 1.2.0: 42%')
  // Drawn by ui/Meter (no native <progress>): its value is the ARIA one.
  await expect(status.getByRole('progressbar', { name: 'Download of version 1.2.0' })).toHaveAttribute(
    'aria-valuenow',
    '42.5'
  )
  await expectNoViolations(app, 'settings while downloading')

  await control(request, host, 'update-event', { event: 'update-downloaded', version: '1.2.0' })
  await expect(status.getByRole('status')).toHaveText('Version 1.2.0 is ready: restart to update')
  // Settings says it once: its Updates section, not the banner too.
  await expect(app.getByRole('button', { name: 'Restart to update' })).toHaveCount(1)
  await expect(app.getByTestId('update-banner')).toHaveCount(0)
  const tray = await (await request.get(`${host.url}__host/control/tray`)).json()
  expect(tray.menu.map((i: { label?: string }) => i.label)).toContain('Restart to Update (1.2.0)')
  // Nothing installs on its own.
  expect(host.updater.calls.installs).toBe(0)
  await expectNoViolations(app, 'settings with an update ready')
  await status.getByRole('button', { name: 'Restart to update' }).click()
  await expect.poll(() => host.updater.calls.installs).toBe(1)

  // Everywhere else, the banner says it.
  await openHash(app, '#/now')
  const banner = app.getByTestId('update-banner')
  await expect(banner).toContainText('Version 1.2.0 is ready.')
  await banner.getByRole('button', { name: 'Restart to update' }).click()
  await expect.poll(() => host.updater.calls.installs).toBe(2)
  // The tray's item does the same.
  await control(request, host, 'tray-action', { type: 'install-update' })
  expect(host.updater.calls.installs).toBe(3)
})

test('an update error is said in a few words with the next try; up to date says so', async ({ app, host, request }) => {
  await openSettings(app, host)
  const status = app.getByTestId('update-status')
  await status.getByRole('button', { name: 'Check for updates', exact: true }).click()
  // The check has started (its own state shown) before its error comes: the error is not overtaken by it.
  await expect(status.getByRole('status')).toHaveText('Checking for updates…')
  await control(request, host, 'update-event', {
    event: 'error',
    message: 'net::ERR_CONNECTION_REFUSED\n    at SimpleURLLoaderWrapper'
  })
  await expect(status.getByRole('status')).toHaveText('Update failed: the update server could not be reached')
  // In the window's one date form: today's time of day in the system's hour cycle ("today 2:30 PM", "today 14:30"),
  // or the day when not today.
  const time = String.raw`today \d{1,2}:\d{2}(\s?[AP]M)?`
  await expect(
    status.getByText(new RegExp(String.raw`^Tried at ${time}; the next try is at (${time}|[A-Z][a-z]{2} \d{1,2})\.$`))
  ).toBeVisible()
  // Installing is refused while nothing is ready.
  await expect(invoke(app, 'update:install')).rejects.toThrow(/forbidden: No update has been downloaded yet/)
  await status.getByRole('button', { name: 'Check for updates', exact: true }).click()
  await control(request, host, 'update-event', { event: 'update-not-available', version: '0.1.0' })
  await expect(status.getByRole('status')).toHaveText('Up to date')
  expect(host.updater.calls).toMatchObject({ checks: 2, downloads: 0, installs: 0 })
})

test('automatic update checks can be turned off, and are kept off', async ({ app, host }) => {
  await openSettings(app, host)
  const box = app.getByRole('switch', { name: 'Check for updates automatically' })
  await expect(box).toBeChecked()
  await box.uncheck()
  await expect.poll(async () => (await invoke(app, 'settings:get')).checkForUpdates).toBe(false)
  await expect(app.getByTestId('update-status').getByRole('status')).toHaveText('Updates: automatic checks are off')
  await app.reload()
  await openHash(app, '#/settings')
  await expect(app.getByRole('switch', { name: 'Check for updates automatically' })).not.toBeChecked()
})

test('About shows the versions, no raw folders and no dash for what is not known (the key store and update state once, in their sections); Copy diagnostics copies the folders, never the key', async ({
  app,
  host
}) => {
  await openSettings(app, host)
  const about = app.getByTestId('about')
  await expect(about.getByTestId('about-version')).toHaveText('0.1.0')
  await expect(about).toContainText(process.versions.node)
  // Paths are for a bug report: in the copied diagnostics, not on the screen; the test host runs no Electron.
  await expect(about).not.toContainText(host.settingsDir)
  await expect(about).not.toContainText('main.log')
  await expect(about).not.toContainText('Electron')
  await expect(about).not.toContainText('–')
  // Each said once on the screen: the update state under Updates, the key store under Advanced.
  await expect(about).not.toContainText('not checked yet')
  await expect(about).not.toContainText('Keys are kept in memory')
  await expect(app.getByText('Updates: not checked yet')).toHaveCount(1)
  await expect(app.getByTestId('update-status')).toContainText('Updates: not checked yet')
  await app.getByRole('button', { name: 'Advanced' }).click()
  await expect(app.getByTestId('secrets-backend')).toContainText('Keys are kept in memory by the test host.')
  await expect(app.getByText(/Keys are kept in memory by the test host/)).toHaveCount(1)

  await about.getByRole('button', { name: 'Copy diagnostics' }).click()
  await expect(app.getByTestId('announcer')).toHaveText('Diagnostics copied to the clipboard.')
  expect(host.records.clipboard).toHaveLength(1)
  const text = host.records.clipboard[0]!
  expect(text).toContain('Agent Tray 0.1.0')
  expect(text).toContain(`Settings: ${host.settingsDir}`)
  expect(text).toContain('main.log')
  expect(text).toContain('Key store: session-only')
  expect(text).toContain('Connections: 1')
  expect(text).not.toContain(host.serviceApiKey)
  expect(text).not.toContain(host.service.url)

  await about.getByRole('button', { name: 'Open logs' }).click()
  await expect.poll(() => host.records.logsOpened).toBe(1)
  await expectNoViolations(app, 'settings with About')
})

test('a deep link opens the window on the project or the task; anything else is refused and logged', async ({
  app,
  host,
  request
}) => {
  await connect(app, host)
  const project = host.service.control.createProject({ name: 'Linked project' })
  const task = host.service.control.addTask(project.id, { name: 'Linked task', status: 'completed' })
  await invoke(app, 'project:watch', { projectId: project.id })
  const shown = host.records.windowShown

  await control(request, host, 'deep-link', { url: `agent-tray://projects/${project.id}` })
  await expect(app).toHaveURL(new RegExp(`#/projects/${project.id}$`))
  await expect(app.getByRole('heading', { name: 'Linked project', level: 1 })).toBeVisible()
  expect(host.records.windowShown).toBe(shown + 1)

  await control(request, host, 'deep-link', { url: `agent-tray://projects/${project.id}/tasks/${task.id}` })
  await expect(app).toHaveURL(new RegExp(`#/projects/${project.id}/tasks/${task.id}$`))
  await expect(app.getByRole('heading', { name: 'Linked task', level: 1 })).toBeVisible()

  for (const url of [
    'agent-tray://settings',
    'https://example.com/projects/x',
    `agent-tray://projects/${project.id}?x=1`
  ]) {
    await control(request, host, 'deep-link', { url })
  }
  expect(host.log.filter((l) => l.startsWith('deep link refused:'))).toHaveLength(3)
  await expect(app).toHaveURL(new RegExp(`#/projects/${project.id}/tasks/${task.id}$`))
})

test("a project created with 'send me back' gets its agent-tray:// link as return URL", async ({ app, host }) => {
  await connect(app, host)
  await openHash(app, '#/projects')
  await app.getByRole('button', { name: 'New project' }).click()
  const form = app.getByRole('dialog', { name: 'Create a project' })
  await form.getByLabel('Name (required)').fill('Comes back')
  const option = form.getByRole('checkbox', { name: /send me back to Agent Tray/ })
  await expect(option).not.toBeChecked()
  await option.check()
  await form.getByRole('button', { name: 'Create project' }).click()
  await expect
    .poll(() => host.service.control.listProjects().find((p) => p.name === 'Comes back')?.return_url ?? null)
    .toMatch(/^agent-tray:\/\/projects\//)
  const created = host.service.control.listProjects().find((p) => p.name === 'Comes back')!
  expect(created.return_url).toBe(`agent-tray://projects/${created.id}`)
  // With a return URL of the user's own, the option is off.
  await expect(app.getByRole('heading', { name: 'Comes back', level: 1 })).toBeVisible()
  await openHash(app, '#/projects')
  await app.getByRole('button', { name: 'New project' }).click()
  const again = app.getByRole('dialog', { name: 'Create a project' })
  await again.getByLabel('Return URL').fill('https://client.example.com/back')
  await expect(again.getByRole('checkbox', { name: /send me back to Agent Tray/ })).toBeDisabled()
})

test("the window's unexpected errors reach the log with their stack, and the window carries on", async ({
  app,
  host
}) => {
  await connect(app, host)
  await app.evaluate(() => {
    setTimeout(() => {
      throw new Error('boom in the window')
    }, 0)
    void Promise.reject(new TypeError('rejected in the window'))
  })
  await expect
    .poll(() => host.log.find((l) => l.startsWith('window: uncaught error: Error: boom in the window')) ?? null)
    .toMatch(/\n\s*at /)
  await expect
    .poll(() => host.log.some((l) => l.startsWith('window: unhandled rejection: TypeError: rejected in the window')))
    .toBe(true)
  await openHash(app, '#/settings')
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
})

test('Settings explains what this desktop needs: a hidden tray icon, with the fix', async ({ app, host, request }) => {
  await openSettings(app, host)
  await expect(app.getByTestId('desktop-notes')).toHaveCount(0)
  await control(request, host, 'desktop-note', { note: TRAY_HIDDEN_NOTE, shown: true })
  const notes = app.getByTestId('desktop-notes')
  await expect(notes).toContainText(TRAY_HIDDEN_NOTE.title)
  await expect(notes).toContainText('gnome-shell-extension-appindicator')
  await control(request, host, 'desktop-note', { note: TRAY_HIDDEN_NOTE, shown: false })
  await expect(app.getByTestId('desktop-notes')).toHaveCount(0)
})
