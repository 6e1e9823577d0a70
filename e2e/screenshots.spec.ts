// One PNG per main screen and theme, from the real renderer on the test host with the demo.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { invoke, openHash, projectIdByName } from './window.helpers'
import { expect, test } from './support/fixtures'

const OUT = fileURLToPath(new URL('./screenshots/', import.meta.url))
mkdirSync(OUT, { recursive: true })

async function shoot(page: Page, name: string, theme: string): Promise<void> {
  // Relative times and the clock tick: let the page settle, then capture the whole page.
  await page.waitForTimeout(300)
  await page.screenshot({ path: `${OUT}${name}-${theme}.png`, fullPage: true })
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme })

    test('first run', async ({ app }) => {
      await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
      await shoot(app, 'setup', colorScheme)
    })

    test.describe('demo', () => {
      test.use({ hostOptions: { demo: true } })

      test('every main screen', async ({ app, host }) => {
        await expect(app.getByRole('link', { name: 'Recipe Box' })).toBeVisible()
        await shoot(app, 'projects', colorScheme)

        const projectId = await projectIdByName(app, 'Portfolio site')
        await openHash(app, `#/projects/${projectId}`)
        await expect(app.locator('[data-task-id]').first()).toBeVisible()
        await shoot(app, 'project', colorScheme)

        await app.getByRole('button', { name: 'Publish' }).click()
        await app.getByLabel('Sub-domain').fill('portfolio')
        await app.locator('form').filter({ has: app.getByLabel('Sub-domain') }).getByRole('button', { name: 'Publish' }).click()
        await expect(app.locator('[data-publish-status]')).toBeVisible()
        await shoot(app, 'publish', colorScheme)

        const tasks = await invoke(app, 'project:tasks', { projectId })
        const task = tasks.find((t) => t.status === 'completed') ?? tasks[0]!
        await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
        await app.locator('[data-step-id]').nth(2).click()
        await expect(app.locator('#step-detail h3')).toBeVisible()
        await shoot(app, 'task', colorScheme)

        await openHash(app, '#/costs')
        await expect(app.getByRole('img', { name: /Cost per day/ })).toBeVisible()
        await shoot(app, 'costs', colorScheme)

        await openHash(app, '#/settings')
        await expect(app.getByRole('heading', { name: 'Notifications' })).toBeVisible()
        await shoot(app, 'settings', colorScheme)

        host.service.control.setFaults({ rules: [{ kind: 'error', status: 401, pathPrefix: `/projects/${projectId}` }] })
        await openHash(app, `#/projects/${projectId}`)
        await expect(app.locator('[data-error-kind="auth"]').first()).toBeVisible()
        await shoot(app, 'error', colorScheme)
      })
    })
  })
}
