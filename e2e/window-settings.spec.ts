// The settings screen: every field saves itself on change (read back through settings:get, and
// after a reload), invalid values are refused inline and leave the saved value alone, and the
// theme really changes the page. What people change comes first; the plumbing waits, closed,
// under Advanced; every setting is a switch, an interval a menu, the shortcut key caps recorded by pressing them.
import type { Locator, Page } from '@playwright/test'
import type { NotifiableTransition } from '../src/shared/settings'
import { expect, test } from './support/fixtures'
import { connect, expectNoViolations, invoke, openHash } from './window.helpers'

test.use({ colorScheme: 'light' })

test.beforeEach(async ({ app, host }) => {
  await connect(app, host)
  await openHash(app, '#/settings')
  await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeAttached()
})

const settings = (app: Page) => invoke(app, 'settings:get')

/** The status line says the last change was saved. */
async function expectSaved(app: Page): Promise<void> {
  await expect(app.getByTestId('settings-status')).toContainText('Saved')
}

/** Opens the Advanced section (closed on every visit) and returns its toggle. */
async function openAdvanced(app: Page): Promise<Locator> {
  const toggle = app.getByRole('button', { name: 'Advanced' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  return toggle
}

/** Types a value and leaves the field, as a person does (that is when a field saves). */
/** A clock time as en-US writes it, whichever space ICU puts before AM/PM. */
const clock = (time: string): RegExp => new RegExp(`^${time.replace(' ', '\\s')}$`)

/** Chooses a quiet hour from its menu of times. */
async function choose(app: Page, label: 'From' | 'Until', time: string): Promise<void> {
  await app.getByRole('button', { name: new RegExp(`^${label} `) }).click()
  await app.getByRole('menuitemradio', { name: clock(time) }).click()
  await expect(app.getByRole('button', { name: new RegExp(`^${label} `) })).toHaveText(clock(time))
}

test('each notification transition toggles on its own and is kept', async ({ app }) => {
  const labels: [NotifiableTransition, string][] = [
    ['waiting', 'A task waits for you'],
    ['started', 'A task starts'],
    ['completed', 'A task completes'],
    ['failed', 'A task fails'],
    ['cancelled', 'A task is cancelled']
  ]
  const status = app.getByTestId('settings-status')
  await expect(status).toHaveAttribute('aria-live', 'polite')
  for (const [transition, label] of labels) {
    const before = (await settings(app)).notifications.transitions
    const box = app.getByRole('switch', { name: label })
    await expect(box).toBeChecked({ checked: before[transition] })
    await box.setChecked(!before[transition])
    await expectSaved(app)
    await expect
      .poll(async () => (await settings(app)).notifications.transitions)
      .toEqual({ ...before, [transition]: !before[transition] })
  }
  // Kept: a fresh page shows what was saved.
  const saved = (await settings(app)).notifications.transitions
  await app.reload()
  await openHash(app, '#/settings')
  for (const [transition, label] of labels) {
    await expect(app.getByRole('switch', { name: label })).toBeChecked({ checked: saved[transition] })
  }
})

test('quiet hours: their times shown only while on, start and end saved as chosen, only times on offer, the times kept while off', async ({
  app
}) => {
  const quietHours = app.getByRole('switch', { name: 'Quiet hours' })
  // Off, there are no times to set.
  await expect(quietHours).not.toBeChecked()
  await expect(app.getByLabel('From')).toHaveCount(0)
  await expect(app.getByLabel('Until')).toHaveCount(0)
  await quietHours.check()
  await expectSaved(app)
  await expect.poll(async () => (await settings(app)).notifications.quietHours.enabled).toBe(true)
  await expect(app.getByLabel('From')).toBeVisible()
  await expect(app.getByLabel('Until')).toBeVisible()

  // Each time is a menu of the day's half hours on the locale's clock (en-US here), not a field to type in.
  await choose(app, 'From', '11:30 PM')
  await expect.poll(async () => (await settings(app)).notifications.quietHours.start).toBe('23:30')
  await choose(app, 'Until', '6:30 AM')
  await expect.poll(async () => (await settings(app)).notifications.quietHours.end).toBe('06:30')
  await expectSaved(app)

  // Only times are on offer, so nothing but a time can be saved: every half hour, the chosen one checked.
  await app.getByRole('button', { name: /^From / }).click()
  const times = app.getByRole('menu', { name: 'From' }).getByRole('menuitemradio')
  await expect(times).toHaveCount(48)
  await expect(app.getByRole('menuitemradio', { checked: true })).toHaveText(clock('11:30 PM'))
  await app.keyboard.press('Escape')
  expect((await settings(app)).notifications.quietHours).toEqual({ enabled: true, start: '23:30', end: '06:30' })

  await choose(app, 'From', '9:30 PM')
  await expect.poll(async () => (await settings(app)).notifications.quietHours.start).toBe('21:30')

  // Off: the times go from the screen, not from the settings; on again, the times are back as saved.
  await quietHours.uncheck()
  await expect
    .poll(async () => (await settings(app)).notifications.quietHours)
    .toEqual({ enabled: false, start: '21:30', end: '06:30' })
  await expect(app.getByLabel('From')).toHaveCount(0)
  await expect(app.getByLabel('Until')).toHaveCount(0)
  await quietHours.check()
  await expect(app.getByRole('button', { name: /^From / })).toHaveText(clock('9:30 PM'))
  await expect(app.getByRole('button', { name: /^Until / })).toHaveText(clock('6:30 AM'))
})

test('sound and start at login are saved as toggled', async ({ app }) => {
  const sound = app.getByRole('switch', { name: 'Play a sound' })
  const before = (await settings(app)).notifications.sound
  await sound.setChecked(!before)
  await expectSaved(app)
  await expect.poll(async () => (await settings(app)).notifications.sound).toBe(!before)

  const login = app.getByRole('switch', { name: 'Start at login' })
  await expect(login).not.toBeChecked()
  await login.check()
  await expect.poll(async () => (await settings(app)).launchAtLogin).toBe(true)
  await login.uncheck()
  await expect.poll(async () => (await settings(app)).launchAtLogin).toBe(false)
})

test('polling intervals: chosen from a menu within the bounds and saved; none shorter than while a task runs is offered for when all have ended', async ({
  app
}) => {
  await openAdvanced(app)
  const active = app.getByRole('group', { name: 'While a task runs' }).getByRole('button')
  const idle = app.getByRole('group', { name: 'When all tasks have ended' }).getByRole('button')
  const before = (await settings(app)).polling
  await expect(active).toHaveText(`Every ${before.activeIntervalMs / 1000} s`)

  await idle.click()
  // The menu's choices are the shared bounds' (5 s to 24 h), the current one marked.
  const choice = (name: string) => app.getByRole('menuitemradio', { name, exact: true })
  await expect(choice('Every 5 s')).toBeVisible()
  await expect(choice('Every 1 s')).toHaveCount(0)
  await choice('Every 1 m').click()
  await expect(idle).toHaveText('Every 1 m')
  await expect.poll(async () => (await settings(app)).polling.idleIntervalMs).toBe(60_000)
  await expectSaved(app)

  await active.click()
  await expect(choice('Every 1 s')).toBeVisible()
  // Longer than when all tasks have ended: not offered.
  await expect(choice('Every 5 m')).toHaveAttribute('aria-disabled', 'true')
  await choice('Every 10 s').click()
  await expect
    .poll(async () => (await settings(app)).polling)
    .toEqual({ ...before, activeIntervalMs: 10_000, idleIntervalMs: 60_000 })
  await expect(active).toHaveText('Every 10 s')
})

test('theme: light and dark set data-theme and the background; system follows the OS', async ({ app }) => {
  const themes = app.getByRole('group', { name: 'Theme' })
  const theme = (label: 'System' | 'Light' | 'Dark') => themes.getByRole('button', { name: label, exact: true })
  const html = app.locator('html')
  const background = () =>
    app.locator('body').evaluate((b) => b.ownerDocument.defaultView!.getComputedStyle(b).backgroundColor)

  await theme('Dark').click()
  await expect(html).toHaveAttribute('data-theme', 'dark')
  await expect(theme('Dark')).toHaveAttribute('aria-pressed', 'true')
  await expect(theme('System')).toHaveAttribute('aria-pressed', 'false')
  await expect.poll(background).toBe('rgb(27, 30, 34)')
  expect((await settings(app)).theme).toBe('dark')

  await theme('Light').click()
  await expect(html).toHaveAttribute('data-theme', 'light')
  await expect.poll(background).toBe('rgb(255, 255, 255)')
  expect((await settings(app)).theme).toBe('light')

  await app.emulateMedia({ colorScheme: 'dark' })
  await theme('System').click()
  await expect(html).not.toHaveAttribute('data-theme')
  await expect.poll(background).toBe('rgb(27, 30, 34)')
  expect((await settings(app)).theme).toBe('system')
})

test('the basic_text key store is allowed only when switched on, its warning on its info button', async ({ app }) => {
  await openAdvanced(app)
  await expect(app.getByTestId('secrets-backend')).toContainText('Memory only, for this session')
  const allow = app.getByRole('switch', { name: /Allow the weak file store/ })
  await expect(allow).not.toBeChecked()
  expect((await settings(app)).allowBasicTextSecrets).toBe(false)
  // The warning is the switch's description, and shows from its (i) button.
  await expect(allow).toHaveAccessibleDescription(/anyone with your files can read it.*Takes effect at the next start/)
  await app.getByRole('button', { name: 'About Allow the weak file store' }).click()
  await expect(app.locator('#allow-basic-text-info')).toBeVisible()
  await expect(app.locator('#allow-basic-text-info')).toContainText('anyone with your files can read it')
  await app.keyboard.press('Escape')
  await expect(app.locator('#allow-basic-text-info')).toBeHidden()

  await allow.check()
  await expectSaved(app)
  await expect.poll(async () => (await settings(app)).allowBasicTextSecrets).toBe(true)
  await app.reload()
  await openHash(app, '#/settings')
  await openAdvanced(app)
  await expect(app.getByRole('switch', { name: /Allow the weak file store/ })).toBeChecked()

  await app.getByRole('switch', { name: /Allow the weak file store/ }).uncheck()
  await expect.poll(async () => (await settings(app)).allowBasicTextSecrets).toBe(false)
})

test.describe('the window', () => {
  test.use({ hostOptions: { shortcutsTaken: ['CommandOrControl+Alt+T'] } })

  test('the shortcut: a key press is recorded and taken; one another application holds is refused with the reason, the old one kept', async ({
    app,
    host
  }) => {
    const field = app.getByRole('button', { name: /^Show and hide shortcut/ })
    // Key caps, never the accelerator's spelling.
    await expect(field).toHaveText('Ctrl Shift A')
    await expect(field).toHaveAccessibleName('Show and hide shortcut: Ctrl Shift A')
    await expect(field.locator('kbd')).toHaveText(['Ctrl', 'Shift', 'A'])
    await expect(app.getByRole('main')).not.toContainText('CommandOrControl')
    await field.focus()
    await app.keyboard.press('Control+Shift+K')
    await expect(field.locator('kbd')).toHaveText(['Ctrl', 'Shift', 'K'])
    await expect.poll(async () => (await settings(app)).shortcut).toBe('CommandOrControl+Shift+K')
    expect(host.records.shortcut).toBe('CommandOrControl+Shift+K')

    // Recording: a click, then the keys.
    await field.click()
    await expect(field).toHaveText('Press the keys…')
    await app.keyboard.press('Control+Alt+T')
    await expect(app.locator('#shortcut-error')).toContainText('another application has it')
    await expect(field.locator('kbd')).toHaveText(['Ctrl', 'Shift', 'K'])
    expect((await settings(app)).shortcut).toBe('CommandOrControl+Shift+K')
    expect(host.records.shortcut).toBe('CommandOrControl+Shift+K')

    // Not a shortcut at all: said inline, nothing asked of the platform.
    await field.click()
    await app.keyboard.press('Shift+A')
    await expect(app.locator('#shortcut-error')).toContainText('would fire while you type')
    expect(host.records.shortcut).toBe('CommandOrControl+Shift+K')
    // Escape stops recording and keeps the shortcut.
    await app.keyboard.press('Escape')
    await expect(field.locator('kbd')).toHaveText(['Ctrl', 'Shift', 'K'])
    await expectNoViolations(app, 'settings with a refused shortcut')
  })

  test('the pin in the header keeps the window open, remembered across a reload; no second pin, and no Dock option off macOS', async ({
    app
  }) => {
    // The pin is in the top level's bar (Settings, one level down, has its own).
    await openHash(app, '#/now')
    const pin = app.getByRole('button', { name: 'Pin' })
    await expect(pin).toHaveAttribute('aria-pressed', 'false')
    await pin.click()
    await expect(pin).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(async () => (await settings(app)).pinned).toBe(true)
    await app.reload()
    await expect(app.getByRole('button', { name: 'Pin' })).toHaveAttribute('aria-pressed', 'true')
    await openHash(app, '#/settings')
    // The header's pin is the only one: Settings repeats neither it nor the header's pause.
    await expect(app.getByRole('main').getByRole('button', { name: /Pin|Pause/ })).toHaveCount(0)
    await expect(app.getByRole('main').getByRole('checkbox', { name: /Keep the window open/ })).toHaveCount(0)
    // This page runs as on Linux: the Dock is a macOS thing.
    await expect(app.getByRole('switch', { name: 'Hide the Dock icon' })).toHaveCount(0)
  })
})

test.describe('on macOS', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Electron/45.4.1 Safari/537.36'
  })

  test('the Dock option is a switch in General, saved as toggled', async ({ app }) => {
    const general = app.getByRole('region', { name: 'General' })
    const dock = general.getByRole('switch', { name: 'Hide the Dock icon' })
    await expect(dock).toBeChecked({ checked: (await settings(app)).hideDockIcon })
    await dock.setChecked(false)
    await expect.poll(async () => (await settings(app)).hideDockIcon).toBe(false)
    await dock.setChecked(true)
    await expect.poll(async () => (await settings(app)).hideDockIcon).toBe(true)
  })
})

test('the order: General, Notifications, Forwarding, Accounts, Advanced (closed), Updates, About; no sentence saying what the screen shows', async ({
  app
}) => {
  await expect(app.getByRole('heading', { level: 2 })).toHaveText([
    'General',
    'Notifications',
    'Forwarding',
    'Accounts',
    'Advanced',
    'Updates',
    'About'
  ])
  await expect(app.getByText('Changes are saved as you make them')).toHaveCount(0)
  // Advanced is closed: its fields are not shown, and its button says which region it opens.
  const toggle = app.getByRole('button', { name: 'Advanced' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  const region = app.locator(`#${await toggle.getAttribute('aria-controls')}`)
  await expect(region).toBeHidden()
  await expect(app.getByRole('group', { name: 'While a task runs' })).toBeHidden()
  await expectNoViolations(app, 'settings with Advanced closed')
})

test('keyboard only: Advanced opens and closes from the keyboard, its fields come next in the tab order; the account menu opens with the arrows; every sheet and menu opens and closes from the keyboard', async ({
  app
}) => {
  const toggle = app.getByRole('button', { name: 'Advanced' })
  await toggle.focus()
  await app.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(app.getByRole('region', { name: 'Advanced' })).toBeVisible()
  await app.keyboard.press('Tab')
  await expect(app.getByRole('group', { name: 'While a task runs' }).getByRole('button')).toBeFocused()
  await toggle.focus()
  await app.keyboard.press('Space')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(app.getByRole('group', { name: 'While a task runs' })).toBeHidden()

  const menu = app.getByRole('button', { name: 'Actions for Reference' })
  await menu.focus()
  await app.keyboard.press('ArrowDown')
  await expect(app.getByRole('menuitem', { name: 'Edit' })).toBeFocused()
  await app.keyboard.press('Enter')
  // Edit is a sheet: Escape closes it, and focus comes back to the menu.
  await expect(app.getByRole('dialog', { name: 'Edit Reference' }).getByLabel('Publishing domain')).toBeVisible()
  await app.keyboard.press('Escape')
  await expect(app.getByRole('dialog')).toHaveCount(0)
  await expect(menu).toBeFocused()

  // Every other sheet and menu of Settings opens from the keyboard with focus inside, and Escape gives it back.
  for (const [button, sheet] of [
    ['Add account…', 'Add an account'],
    ['Add target…', 'Add a forwarding target']
  ] as const) {
    const opener = app.getByRole('button', { name: button })
    await opener.focus()
    await app.keyboard.press('Enter')
    const dialog = app.getByRole('dialog', { name: sheet })
    await expect(dialog).toBeVisible()
    await expect(dialog.locator(':focus')).toHaveCount(1)
    await app.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(opener).toBeFocused()
  }
  // A forwarding target's menu and its Edit sheet.
  await invoke(app, 'forward:add', { url: 'http://127.0.0.1:9/hook', name: 'Hook', on: ['failed'], when: 'always' })
  const targetMenu = app.getByRole('button', { name: 'More for Hook' })
  await targetMenu.focus()
  await app.keyboard.press('ArrowDown')
  await expect(app.getByRole('menuitem', { name: 'Edit…' })).toBeFocused()
  await app.keyboard.press('Enter')
  const editTarget = app.getByRole('dialog', { name: 'Edit Hook' })
  await expect(editTarget.locator(':focus')).toHaveCount(1)
  await app.keyboard.press('Escape')
  await expect(editTarget).toHaveCount(0)
  await expect(targetMenu).toBeFocused()
  // Quiet hours: the switch, then each time's menu.
  await app.getByRole('switch', { name: 'Quiet hours' }).focus()
  await app.keyboard.press('Space')
  for (const which of ['From', 'Until']) {
    const time = app.getByRole('button', { name: new RegExp(`^${which} `) })
    await time.focus()
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitemradio', { checked: true })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(time).toBeFocused()
  }
  await toggle.focus()
  await app.keyboard.press('Enter')
  for (const group of ['While a task runs', 'When all tasks have ended']) {
    const every = app.getByRole('group', { name: group }).getByRole('button')
    await every.focus()
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitemradio', { checked: true })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(every).toBeFocused()
  }
})
