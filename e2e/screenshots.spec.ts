// `npm run screenshots`: a PNG of every screen in both themes, at the window's default size
// (420 × 640, what the tray popover shows: the viewport, as the user sees it) and at a wide size
// (1100 px, the whole page), from the real renderer on the test host with the demo.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { ANSWERS, startReceiver } from '../src/core/forward/test-receivers'
import { expect, test } from './support/fixtures'
import {
  chooseFromMenu,
  connect,
  DEFAULT_WINDOW,
  invoke,
  openHash,
  projectIdByName,
  WIDE_WINDOW
} from './window.helpers'

const OUT = fileURLToPath(new URL('./screenshots/', import.meta.url))
mkdirSync(OUT, { recursive: true })

const SIZES = [
  { suffix: '', viewport: DEFAULT_WINDOW, fullPage: false },
  { suffix: '-wide', viewport: WIDE_WINDOW, fullPage: true }
] as const

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    test.describe(`${colorScheme} theme, ${size.viewport.width}×${size.viewport.height}`, () => {
      test.use({ colorScheme, viewport: size.viewport })

      async function shoot(page: Page, name: string, options: { top?: boolean } = {}): Promise<void> {
        // From the top, unless the screen was scrolled to what it shows on purpose. The screenshot
        // waits for the fonts; with animations disabled, transitions end and the running pulse
        // rests at its start, so every capture is the settled screen without waiting a fixed time.
        if (options.top !== false)
          await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0))
        await page.screenshot({
          path: `${OUT}${name}${size.suffix}-${colorScheme}.png`,
          fullPage: size.fullPage,
          animations: 'disabled'
        })
      }

      test('first run', async ({ app }) => {
        await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
        await shoot(app, 'setup')
      })

      // Settings → Forwarding, at the window's size: a target delivered to, one whose receiver
      // refuses, one paused; the user seen as away (the screen locked).
      if (size.suffix === '') {
        test('settings, forwarding', async ({ app, host, request }) => {
          const receiver = await startReceiver(ANSWERS.ntfyOk())
          try {
            await connect(app, host)
            const phone = await invoke(app, 'forward:add', {
              url: `ntfy://127.0.0.1:${receiver.port}/phone-alerts`,
              name: 'Phone (ntfy)',
              on: ['failed', 'budget'],
              when: 'away'
            })
            const team = await invoke(app, 'forward:add', {
              url: `${receiver.url}/hooks/team-channel-0123456789`,
              name: 'Team webhook',
              on: ['failed', 'completed', 'cancelled'],
              when: 'always'
            })
            const old = await invoke(app, 'forward:add', {
              url: `${receiver.url}/hooks/old-hook-0123456789ab`,
              name: 'Old hook',
              on: ['failed'],
              when: 'away'
            })
            await invoke(app, 'forward:test', { targetId: phone.id })
            receiver.script.push({ status: 410, body: 'this webhook was deleted' })
            await invoke(app, 'forward:test', { targetId: team.id })
            await invoke(app, 'forward:update', { targetId: old.id, paused: true })
            await request.post(`${host.url}__host/control/power`, { data: { event: 'lock-screen' } })
            await openHash(app, '#/settings')
            const heading = app.getByRole('heading', { name: 'Forwarding', level: 2 })
            await expect(app.getByTestId('presence')).toHaveText('You are seen as away: the screen is locked.')
            await expect(app.locator('[data-target-id]')).toHaveCount(3)
            // The section's top just below the window's sticky header.
            await heading.evaluate((el) => {
              const e = el as unknown as { getBoundingClientRect(): { top: number } }
              ;(globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(
                0,
                e.getBoundingClientRect().top - 110
              )
            })
            await shoot(app, 'settings-forwarding', { top: false })
          } finally {
            await receiver.close()
          }
        })
      }

      test.describe('demo', () => {
        test.use({ hostOptions: { demo: true } })

        test('every screen', async ({ app, host }) => {
          // Something for the Now screen to tell: a failure and a running task beside the demo's completions.
          const projectId = await projectIdByName(app, 'Portfolio site')
          const recipe = await projectIdByName(app, 'Recipe Box')
          const broken = host.service.control.addTask(recipe, {
            name: 'Add the print stylesheet',
            status: 'in_progress',
            script: 'run-forever'
          })
          // And one that keeps running whatever the demo's own tasks have reached by now.
          host.service.control.addTask(projectId, {
            name: 'Add a contact form',
            status: 'in_progress',
            script: 'run-forever'
          })
          await invoke(app, 'monitor:poll-now')
          host.service.control.setTaskStatus(broken.id, 'failed')
          await invoke(app, 'monitor:poll-now')
          await openHash(app, '#/now')
          await expect(app.locator('[data-kind="failed"]').first()).toBeVisible()
          await expect(app.locator('li.running').first()).toBeVisible()
          await shoot(app, 'now')

          await openHash(app, '#/projects')
          await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()
          await shoot(app, 'projects')

          await openHash(app, `#/projects/${projectId}`)
          await expect(app.locator('[data-task-id]').first()).toBeVisible()
          await shoot(app, 'project')

          await chooseFromMenu(app, 'More actions', 'Publish')
          await app.getByLabel('Sub-domain').fill('portfolio')
          await app
            .locator('form')
            .filter({ has: app.getByLabel('Sub-domain') })
            .getByRole('button', { name: 'Publish' })
            .click()
          await expect(app.getByTestId('published-url')).toBeVisible()
          await app.getByTestId('published-url').scrollIntoViewIfNeeded()
          await shoot(app, 'publish', { top: false })

          const tasks = await invoke(app, 'project:tasks', { projectId })
          const task = tasks.find((t) => t.status === 'completed') ?? tasks[0]!
          await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
          await app.locator('[data-step-id]').nth(2).click()
          await expect(app.locator('#step-detail h3')).toBeVisible()
          // From the top: the header and the timeline (wide, the step's detail sits beside it).
          await shoot(app, 'task')

          await openHash(app, '#/costs')
          await expect(app.getByRole('img', { name: /Cost per day/ })).toBeVisible()
          await shoot(app, 'costs')

          await openHash(app, '#/settings')
          await expect(app.getByRole('heading', { name: 'Notifications' })).toBeVisible()
          await shoot(app, 'settings')
          // The rest of Settings: the accounts, and Advanced opened (closed on every visit); wide, the whole page.
          await app.getByRole('button', { name: 'Advanced' }).click()
          await app.getByRole('heading', { name: 'Accounts' }).evaluate((el) => el.scrollIntoView({ block: 'start' }))
          await shoot(app, 'settings-advanced', { top: size.fullPage })

          host.service.control.setFaults({
            rules: [{ kind: 'error', status: 401, pathPrefix: `/projects/${projectId}` }]
          })
          await openHash(app, `#/projects/${projectId}`)
          await expect(app.locator('[data-error-kind="auth"]').first()).toBeVisible()
          await shoot(app, 'error')
        })
      })
    })
  }
}
