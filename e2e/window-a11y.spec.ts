// Accessibility and size: every screen walked once, each checked by expectScreenAccessible (the
// whole of axe in the light theme at the window's default size 420 x 640, no serious or critical
// violation and nothing overflowing sideways; the dark theme's contrast; the wide size's layout),
// and the main flows done with the keyboard alone, with a visible focus ring.
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import {
  chooseFromMenu,
  DEFAULT_WINDOW,
  expectScreenAccessible,
  invoke,
  openHash,
  projectIdByName
} from './window.helpers'

/** Presses Tab until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${target}`)
}

async function expectVisibleFocus(page: Page): Promise<void> {
  const focused = page.locator(':focus')
  await expect(focused).toHaveCount(1)
  const outline = await focused.evaluate((el) => {
    const style = el.ownerDocument.defaultView!.getComputedStyle(el)
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }
  })
  expect(outline.style).not.toBe('none')
  expect(outline.width).toBeGreaterThanOrEqual(2)
}

/** A screen's every check, each once (window.helpers.ts). */
const check = expectScreenAccessible

test.describe('every screen', () => {
  // Each screen once: the whole of axe in the light theme at the window's default size, the
  // theme's contrast in dark, and the wide size's layout (expectScreenAccessible).
  test.use({ colorScheme: 'light', viewport: DEFAULT_WINDOW })

  test('the first-run screen', async ({ app }) => {
    await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
    await app.getByRole('button', { name: 'Connect' }).click()
    await expect(app.getByText('Enter the API key.')).toBeVisible()
    await check(app, 'setup', app.getByRole('button', { name: 'Connect' }))
  })

  test.describe('with the demo', () => {
    test.use({ hostOptions: { demo: true } })

    test('every screen: now, a task, costs and settings', async ({ app, host }) => {
      const projectId = await projectIdByName(app, 'Portfolio site')
      // The Now screen with an item of each kind it lists, and a running task.
      const running = host.service.control.addTask(projectId, {
        name: 'A long running task whose name does not fit on one line',
        status: 'in_progress',
        script: 'run-forever'
      })
      await invoke(app, 'monitor:poll-now')
      host.service.control.setTaskStatus(running.id, 'failed')
      host.service.control.addTask(projectId, { name: 'Still running', status: 'in_progress', script: 'run-forever' })
      await invoke(app, 'monitor:poll-now')
      await openHash(app, '#/now')
      await expect(app.locator('[data-kind="failed"]').first()).toBeVisible()
      await expect(app.locator('li.running').first()).toBeVisible()
      await check(app, 'now', app.locator('[data-kind="failed"]').first())

      const tasks = await invoke(app, 'project:tasks', { projectId })
      const task = tasks.find((t) => t.status === 'completed')!
      await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
      await app.locator('[data-step-id]').first().click()
      await expect(app.locator('#step-detail h3')).toBeVisible()
      // The records are one click away: open them, so they are checked too.
      await app.getByRole('button', { name: /^Show \d+ calls?$/ }).click()
      await expect(app.getByRole('heading', { name: /Usage records/ })).toBeVisible()
      await check(app, 'task', app.locator('#step-detail h3'))

      await openHash(app, '#/costs')
      await expect(app.getByRole('img', { name: /Cost per day/ })).toBeVisible()
      await check(app, 'costs', app.getByRole('img', { name: /Cost per day/ }))

      await openHash(app, '#/settings')
      // Every part open at once: the add form, an account's edit form, Advanced, the account menu.
      await app.getByRole('button', { name: 'Add an account' }).click()
      await app
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click()
      await app.getByRole('menuitem', { name: 'Edit' }).click()
      await app.getByRole('button', { name: 'Advanced' }).click()
      await app
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click()
      await expect(app.getByRole('menu')).toBeVisible()
      await check(app, 'settings', app.getByRole('heading', { name: 'Settings', level: 1 }))
    })

    // The projects and a project in a test of their own: with their menus and forms, one test for
    // every screen ran past the timeout on a loaded machine.
    test('projects and a project: the add menu, the create form, the project menu, details, search, edit and publish', async ({
      app
    }) => {
      const projectId = await projectIdByName(app, 'Portfolio site')
      await openHash(app, '#/projects')
      await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()
      // The create form is a sheet (the page behind it inert): checked on its own, then the add menu.
      await app.getByRole('button', { name: 'New project' }).click()
      await check(app, 'projects with the create sheet open', app.getByLabel('Name (required)'))
      await app.keyboard.press('Escape')
      await app.getByRole('button', { name: 'Add an existing project' }).click()
      await expect(app.getByRole('menuitem', { name: 'Watch an existing project' })).toBeFocused()
      await check(app, 'projects with the add menu open', app.getByRole('link', { name: 'Recipe Box', exact: true }))

      await openHash(app, `#/projects/${projectId}`)
      await expect(app.locator('[data-task-id]').first()).toBeVisible()
      await app.getByText('Details', { exact: true }).click()
      await app.getByRole('button', { name: 'Search tasks' }).click()
      await app.keyboard.type('a')
      await chooseFromMenu(app, 'More actions', 'Edit')
      await app.getByRole('button', { name: 'More actions' }).click()
      await check(
        app,
        'project with its details, the search, the edit form and the menu open',
        app.locator('[data-task-id]').first()
      )
      await app.keyboard.press('Escape')
      await chooseFromMenu(app, 'More actions', 'Publish')
      await app.getByLabel('Sub-domain').fill('Not_Valid')
      await check(app, 'project with the publish form', app.getByLabel('Sub-domain'))
      await app.getByLabel('Sub-domain').fill('a-long-sub-domain-for-this-site')
      await app
        .locator('form')
        .filter({ has: app.getByLabel('Sub-domain') })
        .getByRole('button', { name: 'Publish' })
        .click()
      await expect(app.getByTestId('published-url')).toBeVisible()
      await check(app, 'project published', app.getByTestId('published-url'))
    })

    test('an error state', async ({ app, host }) => {
      const projectId = await projectIdByName(app, 'Portfolio site')
      // A running task as well: the meta line as long as it gets (tasks, running, failed, costs).
      host.service.control.addTask(projectId, {
        name: 'Add a contact form',
        status: 'in_progress',
        script: 'run-forever'
      })
      await invoke(app, 'monitor:poll-now')
      host.service.control.setFaults({ rules: [{ kind: 'error', status: 404, pathPrefix: `/projects/${projectId}` }] })
      await openHash(app, `#/projects/${projectId}`)
      await expect(app.locator('[data-error-kind="not_found"]').first()).toBeVisible()
      await expect(app.getByTestId('stale-note')).toBeVisible()
      await expect(app.getByTestId('project-meta')).toContainText(/\d+ running · \d+ failed/)
      // At 420 px the project's long meta line keeps its Details toggle beside it, on its first
      // line, not on a line of its own.
      const meta = await app.getByTestId('project-meta').boundingBox()
      const toggle = await app.locator('details.about > summary .more').boundingBox()
      expect(toggle!.x).toBeGreaterThan(meta!.x + meta!.width - 1)
      expect(Math.abs(toggle!.y - meta!.y)).toBeLessThan(4)
      await check(app, 'project gone', app.locator('[data-error-kind="not_found"]').first())
    })
  })
})

test.describe('keyboard only', () => {
  // The service's clock held: no demo task moves on during the walk, so no task notification
  // ("Task completed: …") takes the announcer's one line before the budget's own message.
  test.use({ hostOptions: { demo: true, service: { manualClock: true } } })

  test('set a budget, open a project, a task and a step, create a project', async ({ app, host }) => {
    await openHash(app, '#/projects')
    await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()

    await tabTo(app, app.getByRole('link', { name: 'Costs' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Costs', level: 1 })).toBeVisible()
    // No budget yet: its one quiet row opens the sheet.
    await tabTo(app, app.getByRole('button', { name: 'Set a monthly budget' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    const budget = app.getByLabel('Limit (USD)')
    await tabTo(app, budget)
    await expectVisibleFocus(app)
    await app.keyboard.type('12.5')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('announcer')).toContainText('Monthly budget of $12.50 saved')

    // The report's one Group by menu and its range chips.
    await tabTo(app, app.getByRole('button', { name: 'By day' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitemradio', { name: 'Day' })).toBeFocused()
    await app.keyboard.press('ArrowDown')
    await app.keyboard.press('Enter')
    await expect(app.getByRole('button', { name: 'By month' })).toBeFocused()
    // The walk's service clock is held before the window's days, so there is no table: the chart says the grouping.
    await expect(app.getByRole('img', { name: /^Cost per month / })).toBeVisible()
    const week = app.getByRole('group', { name: 'Range' }).getByRole('button', { name: '7d', exact: true })
    await tabTo(app, week)
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(week).toHaveAttribute('aria-pressed', 'true')

    await tabTo(app, app.getByRole('link', { name: 'Projects' }))
    await app.keyboard.press('Enter')
    await tabTo(app, app.getByRole('link', { name: 'Portfolio site' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Portfolio site', level: 1 })).toBeVisible()

    // The "…" menu: Enter opens it on its first item, Escape gives focus back to its button.
    await tabTo(app, app.getByRole('button', { name: 'More actions' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitem', { name: 'Edit' })).toBeFocused()
    await app.keyboard.press('ArrowDown')
    await expect(app.getByRole('menuitem', { name: 'Publish' })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(app.getByRole('button', { name: 'More actions' })).toBeFocused()

    const rows = app.locator('[data-task-id]')
    await tabTo(app, rows.first())
    await expectVisibleFocus(app)
    await app.keyboard.press('ArrowDown')
    await expect(rows.nth(1)).toBeFocused()
    const secondName = (await rows.nth(1).locator('.task-name').textContent())!.trim()
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: secondName, level: 1 })).toBeVisible()

    const step = app.locator('[data-step-id]').first()
    await tabTo(app, step)
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.locator('#step-detail h3')).toBeVisible()
    await tabTo(app, app.getByRole('button', { name: /^Show \d+ calls?$/ }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: /Usage records/ })).toBeVisible()

    await tabTo(app, app.getByRole('link', { name: 'Projects' }).first())
    await app.keyboard.press('Enter')
    // The "+" menu beside New project: watching opens with focus in its field.
    await tabTo(app, app.getByRole('button', { name: 'Add an existing project' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('ArrowDown')
    await expect(app.getByRole('menuitem', { name: 'Watch an existing project' })).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(app.getByLabel('Project ID or link')).toBeFocused()
    // Escape closes the sheet; on to New project.
    await app.keyboard.press('Escape')
    await tabTo(app, app.getByRole('button', { name: 'New project', exact: true }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await tabTo(app, app.getByLabel('Name (required)'))
    await app.keyboard.type('Typed by keyboard')
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Typed by keyboard', level: 1 })).toBeVisible()
    // The hold above is what kept the announcer to the walk's own messages.
    expect(host.records.notifications).toEqual([])
  })
})
