// Accessibility: axe on every screen in both themes (no serious or critical violation), and the
// main flows done with the keyboard alone, with a visible focus ring all the way.
import type { Locator, Page } from '@playwright/test'
import { expectNoSeriousViolations, invoke, openHash, projectIdByName } from './window.helpers'
import { expect, test } from './support/fixtures'

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

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`axe, ${colorScheme} theme`, () => {
    test.use({ colorScheme })

    test('the first-run screen', async ({ app }) => {
      await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
      await app.getByRole('button', { name: 'Connect' }).click()
      await expect(app.getByText('Enter the API key.')).toBeVisible()
      await expectNoSeriousViolations(app, 'setup')
    })

    test.describe('with the demo', () => {
      test.use({ hostOptions: { demo: true } })

      test('projects, a project, a task, costs and settings', async ({ app }) => {
        await expect(app.getByRole('link', { name: 'Recipe Box' })).toBeVisible()
        await app.getByRole('button', { name: 'Create a project' }).click()
        await expectNoSeriousViolations(app, 'projects')

        const projectId = await projectIdByName(app, 'Portfolio site')
        await openHash(app, `#/projects/${projectId}`)
        await expect(app.locator('[data-task-id]').first()).toBeVisible()
        await app.getByRole('button', { name: 'Edit' }).click()
        await expectNoSeriousViolations(app, 'project with the edit form')
        await app.getByRole('button', { name: 'Publish' }).click()
        await app.getByLabel('Sub-domain').fill('Not_Valid')
        await expectNoSeriousViolations(app, 'project with the publish form')

        const [task] = await invoke(app, 'project:tasks', { projectId })
        await openHash(app, `#/projects/${projectId}/tasks/${task!.id}`)
        await app.locator('[data-step-id]').first().click()
        await expect(app.locator('#step-detail h3')).toBeVisible()
        await expectNoSeriousViolations(app, 'task')

        await openHash(app, '#/costs')
        await expect(app.getByRole('img', { name: /Cost per day/ })).toBeVisible()
        await expectNoSeriousViolations(app, 'costs')

        await openHash(app, '#/settings')
        await app.getByRole('button', { name: 'Add a connection' }).click()
        await expectNoSeriousViolations(app, 'settings')
      })

      test('an error state', async ({ app, host }) => {
        const projectId = await projectIdByName(app, 'Portfolio site')
        host.service.control.setFaults({ rules: [{ kind: 'error', status: 404, pathPrefix: `/projects/${projectId}` }] })
        await openHash(app, `#/projects/${projectId}`)
        await expect(app.locator('[data-error-kind="not_found"]').first()).toBeVisible()
        await expectNoSeriousViolations(app, 'project gone')
      })
    })
  })
}

test.describe('keyboard only', () => {
  test.use({ hostOptions: { demo: true } })

  test('set a budget, open a project, a task and a step, create a project', async ({ app }) => {
    await expect(app.getByRole('link', { name: 'Recipe Box' })).toBeVisible()

    await tabTo(app, app.getByRole('link', { name: 'Costs' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Costs', level: 1 })).toBeVisible()
    const budget = app.getByLabel('Budget of Recipe Box in USD')
    await tabTo(app, budget)
    await expectVisibleFocus(app)
    await app.keyboard.type('12.5')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('announcer')).toContainText('Budget of Recipe Box set to $12.50')

    await tabTo(app, app.getByRole('link', { name: 'Projects' }))
    await app.keyboard.press('Enter')
    await tabTo(app, app.getByRole('link', { name: 'Portfolio site' }))
    await expectVisibleFocus(app)
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Portfolio site', level: 1 })).toBeVisible()

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

    await tabTo(app, app.getByRole('link', { name: 'Projects' }).first())
    await app.keyboard.press('Enter')
    await tabTo(app, app.getByRole('button', { name: 'Create a project' }))
    await app.keyboard.press('Enter')
    await tabTo(app, app.getByLabel('Name (required)'))
    await app.keyboard.type('Typed by keyboard')
    await app.keyboard.press('Enter')
    await expect(app.getByRole('heading', { name: 'Typed by keyboard', level: 1 })).toBeVisible()
  })
})
