// Accessibility and size: every screen walked once, each checked by expectScreenAccessible (the
// whole of axe in the light theme at the window's default size 420 x 640, no violation of any
// impact and nothing overflowing sideways; the dark theme's contrast; the wide size's layout),
// and the main flows done with the keyboard alone, with a visible focus ring.
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import {
  atSize,
  chooseFromMenu,
  DEFAULT_WINDOW,
  expectOneHeading,
  expectScreenAccessible,
  invoke,
  openHash,
  projectIdByName,
  WIDE_WINDOW
} from './window.helpers'

/** Presses Tab until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${target}`)
}

/** Waits for a sheet's slide-in to end: axe reads colours, and half-way they are half-faded. */
async function settled(sheet: Locator): Promise<void> {
  await sheet.evaluate((el) =>
    Promise.all(
      (el as unknown as { getAnimations(): { finished: Promise<unknown> }[] }).getAnimations().map((a) => a.finished)
    )
  )
}

/** Presses ArrowDown in an open menu until `item` has focus; fails after `max` presses. */
async function arrowTo(page: Page, item: Locator, max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await item.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return
    await page.keyboard.press('ArrowDown')
  }
  throw new Error(`ArrowDown never reached ${item}`)
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
    // Connect waits for a key: a field's refusal is reached with one typed and the service's name emptied.
    await app.getByLabel('API key').fill('a key')
    await app.getByRole('button', { name: 'Change the service' }).click()
    await app.getByLabel('Name', { exact: true }).fill('')
    await app.getByRole('button', { name: 'Connect' }).click()
    await expect(app.getByText('Give the connection a name.')).toBeVisible()
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
      // Wide, a task chosen from its row shows beside the list, and the page keeps its one H1.
      await atSize(app, WIDE_WINDOW, async () => {
        await app.locator('li.running a').first().click()
        await expect(app.getByRole('region', { name: 'Task' }).getByRole('heading', { name: /^Steps/ })).toBeVisible()
        await expectOneHeading(app, 'now with a task beside it')
      })

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
      // Every part open: Advanced and the account menu at once; the add and edit forms are sheets, one at a time.
      await app.getByRole('button', { name: 'Advanced' }).click()
      await app
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click()
      await expect(app.getByRole('menu')).toBeVisible()
      await check(app, 'settings', app.getByTestId('bar-title'))
      await app.keyboard.press('Escape')
      await app.getByRole('button', { name: 'Add account…' }).click()
      const add = app.getByRole('dialog', { name: 'Add an account' })
      await check(app, 'settings, adding an account', add.getByLabel('API key'))
      await add.getByRole('button', { name: 'Cancel' }).click()
      await app
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click()
      await app.getByRole('menuitem', { name: 'Edit' }).click()
      await check(app, 'settings, editing an account', app.getByRole('dialog').getByLabel('Publishing domain'))
    })

    // The projects and a project in a test of their own: with their menus and forms, one test for
    // every screen ran past the timeout on a loaded machine.
    test('projects and a project: the add menu, the create form, the project menu, search, and each sheet (details, new task, edit, publish)', async ({
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
      await app.getByRole('button', { name: 'Search tasks' }).click()
      await app.keyboard.type('a')
      await app.getByRole('button', { name: 'More actions' }).click()
      await check(app, 'project with the search and the menu open', app.locator('[data-task-id]').first())
      await app.keyboard.press('Escape')
      // Each sheet, one at a time (a sheet is modal): the details, a new task, the edit form.
      for (const [opens, sheet] of [
        ['Details', 'Details'],
        ['Edit', 'Edit the project']
      ] as const) {
        await chooseFromMenu(app, 'More actions', opens)
        const dialog = app.getByRole('dialog', { name: sheet })
        await settled(dialog)
        await check(app, `project, the ${sheet} sheet`, dialog.getByRole('button', { name: /^(Done|Cancel)$/ }))
        await app.keyboard.press('Escape')
        await expect(dialog).toHaveCount(0)
      }
      await app.getByRole('button', { name: 'New task' }).click()
      await app.getByRole('dialog', { name: 'New task' }).getByRole('button', { name: 'Start the task' }).click()
      await expect(app.getByText('Give the task a short name.')).toBeVisible()
      await settled(app.getByRole('dialog', { name: 'New task' }))
      await check(app, 'project, the new task sheet with a problem', app.getByLabel('Name', { exact: true }))
      await app.keyboard.press('Escape')
      await chooseFromMenu(app, 'More actions', 'Publish')
      const publish = app.getByRole('dialog', { name: 'Publish' })
      await publish.getByLabel('Sub-domain').fill('Not_Valid')
      await settled(publish)
      await check(app, 'project with the publish sheet', publish.getByLabel('Sub-domain'))
      await publish.getByLabel('Sub-domain').fill('a-long-sub-domain-for-this-site')
      await publish.getByRole('button', { name: 'Publish', exact: true }).click()
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
      // At 420 px the project's figures, as long as they get, stay one line (an ellipsis, no wrap).
      const meta = app.getByTestId('project-meta')
      const lineHeight = await meta.evaluate((el) =>
        parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).lineHeight)
      )
      expect((await meta.boundingBox())!.height).toBeLessThan(2 * lineHeight)
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
    // At the window's size the row opens the project itself (wide, it would show beside the list, and go when the
    // window narrows), and Details is a sheet of its "…" menu too.
    const walkSize = app.viewportSize()!
    await app.setViewportSize(DEFAULT_WINDOW)
    await tabTo(app, app.getByRole('link', { name: 'Portfolio site' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Portfolio site', level: 1 })).toBeVisible()

    // The "…" menu: Enter opens it on its first item, Escape gives focus back to its button.
    await tabTo(app, app.getByRole('button', { name: 'More actions' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitem', { name: 'Open the agent interface' })).toBeFocused()
    await app.keyboard.press('ArrowDown')
    await expect(app.getByRole('menuitem', { name: 'Publish' })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(app.getByRole('button', { name: 'More actions' })).toBeFocused()
    // Every sheet of the menu opens from the keyboard with focus inside it; Escape closes it and
    // gives focus back to the menu's button.
    for (const [item, sheet] of [
      ['Publish', 'Publish'],
      ['Edit', 'Edit the project'],
      ['Details', 'Details']
    ] as const) {
      await app.keyboard.press('Enter')
      await arrowTo(app, app.getByRole('menuitem', { name: item, exact: true }))
      await app.keyboard.press('Enter')
      const dialog = app.getByRole('dialog', { name: sheet })
      await expect(dialog).toBeVisible()
      await expect(dialog.locator(':focus')).toHaveCount(1)
      await expectVisibleFocus(app)
      await app.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(app.getByRole('button', { name: 'More actions' })).toBeFocused()
    }
    // The bar's one action: New task, a sheet with focus in its first field.
    await app.keyboard.press('Shift+Tab')
    await expect(app.getByRole('button', { name: 'New task' })).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(app.getByLabel('Name', { exact: true })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(app.getByRole('button', { name: 'New task' })).toBeFocused()
    await app.setViewportSize(walkSize)

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
    // The task's "…" menu, then back up the stack with the bar's chevron: the project, then Projects.
    await tabTo(app, app.getByRole('button', { name: 'More actions' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('menuitem', { name: 'Refresh' })).toBeFocused()
    await app.keyboard.press('Escape')
    await tabTo(app, app.getByRole('link', { name: 'Back to Portfolio site' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Portfolio site', level: 1 })).toBeVisible()
    await tabTo(app, app.getByRole('link', { name: 'Back to Projects' }))
    await app.keyboard.press('Enter')
    // The "+" menu beside New project: watching opens with focus in its field.
    await tabTo(app, app.getByRole('button', { name: 'Add an existing project' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('ArrowDown')
    await expect(app.getByRole('menuitem', { name: 'Watch an existing project' })).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(app.getByLabel('Project ID or link')).toBeFocused()
    // Escape closes the sheet; the menu's other sheet, then on to New project.
    await app.keyboard.press('Escape')
    await expect(app.getByRole('button', { name: 'Add an existing project' })).toBeFocused()
    await app.keyboard.press('ArrowDown')
    await arrowTo(app, app.getByRole('menuitem', { name: 'Add from a product' }))
    await app.keyboard.press('Enter')
    const product = app.getByRole('dialog', { name: 'Add from a product' })
    await expect(product.locator(':focus')).toHaveCount(1)
    await app.keyboard.press('Escape')
    await expect(product).toHaveCount(0)
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
