// `npm run screenshots`: a PNG of every screen in both themes, at the window's default size
// (420 × 640, what the tray popover shows: the viewport, as the user sees it) and at a wide size
// (1100 px, the whole page), from the real renderer on the test host with the demo.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { ANSWERS, startReceiver } from '../src/core/forward/test-receivers'
import type { TestHost } from './host'
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

// The frozen demo clock: the page's time stands at FROZEN, the service's clock moves only when advanced (to FROZEN, after
// SETTLE_MS of work), and the app's "today" is FROZEN's; light and dark, narrow and wide show the same data and totals.
const FROZEN = '2026-11-26T14:05:00.000Z'
const SETTLE_MS = 10 * 60_000
const FROZEN_HOST = {
  clockStart: FROZEN,
  service: { manualClock: true, startTime: new Date(Date.parse(FROZEN) - SETTLE_MS).toISOString() }
}

const SIZES = [
  { suffix: '', viewport: DEFAULT_WINDOW, fullPage: false },
  { suffix: '-wide', viewport: WIDE_WINDOW, fullPage: true }
] as const

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    test.describe(`${colorScheme} theme, ${size.viewport.width}×${size.viewport.height}`, () => {
      test.use({ colorScheme, viewport: size.viewport, hostOptions: FROZEN_HOST })

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

      /** Opens the menu of the button named `label`, shoots it open, and closes it again with Escape. */
      async function shootMenu(page: Page, label: string | RegExp, name: string): Promise<void> {
        await page
          .getByRole('button', { name: label, exact: typeof label === 'string' })
          .first()
          .click()
        const menu = page.getByRole('menu')
        await expect(menu).toBeVisible()
        await shoot(page, name, { top: false })
        await page.keyboard.press('Escape')
        await expect(menu).toBeHidden()
      }

      /** The demo at the frozen clock: its own tasks ended, a failure and two tasks running for SETTLE_MS. */
      async function settledDemo(app: Page, host: TestHost): Promise<{ projectId: string; recipe: string }> {
        const projectId = await projectIdByName(app, 'Portfolio site')
        const recipe = await projectIdByName(app, 'Recipe Box')
        const broken = host.service.control.addTask(recipe, {
          name: 'Add the print stylesheet',
          status: 'in_progress',
          script: 'run-forever'
        })
        host.service.control.addTask(projectId, {
          name: 'Add a contact form',
          status: 'in_progress',
          script: 'run-forever'
        })
        host.service.control.advance(SETTLE_MS)
        await invoke(app, 'monitor:poll-now')
        host.service.control.setTaskStatus(broken.id, 'failed')
        await invoke(app, 'monitor:poll-now')
        return { projectId, recipe }
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
                e.getBoundingClientRect().top - 56
              )
            })
            await shoot(app, 'settings-forwarding', { top: false })
          } finally {
            await receiver.close()
          }
        })
      }

      test.describe('demo', () => {
        test.use({ hostOptions: { ...FROZEN_HOST, demo: true } })

        test('every screen', async ({ app, host }) => {
          // Something for the Now screen to tell: a failure and running tasks beside the demo's completions.
          const { projectId } = await settledDemo(app, host)
          await openHash(app, '#/now')
          await expect(app.locator('[data-kind="failed"]').first()).toBeVisible()
          await expect(app.locator('li.running').first()).toBeVisible()
          await shoot(app, 'now')

          await openHash(app, '#/projects')
          await expect(app.getByRole('link', { name: 'Recipe Box', exact: true })).toBeVisible()
          await shoot(app, 'projects')
          await shootMenu(app, 'Add an existing project', 'menu-projects-add')

          await openHash(app, `#/projects/${projectId}`)
          await expect(app.locator('[data-task-id]').first()).toBeVisible()
          await shoot(app, 'project')
          await shootMenu(app, 'More actions', 'menu-project')

          // The Publish sheet over the list, then the published site as the screen's row.
          await chooseFromMenu(app, 'More actions', 'Publish')
          const sheet = app.getByRole('dialog', { name: 'Publish' })
          await sheet.getByLabel('Sub-domain').fill('portfolio')
          await shoot(app, 'publish')
          await sheet.getByRole('button', { name: 'Publish', exact: true }).click()
          await expect(app.getByTestId('published-url')).toBeVisible()
          await shoot(app, 'published')

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
          await shootMenu(app, /^By /, 'menu-costs-group')

          await openHash(app, '#/settings')
          await expect(app.getByRole('heading', { name: 'Notifications' })).toBeVisible()
          await shoot(app, 'settings')
          await shootMenu(app, /^Actions for /, 'menu-account')
          // The rest of Settings: the accounts, and Advanced opened (closed on every visit); wide, the whole page.
          await app.getByRole('button', { name: 'Advanced' }).click()
          await app.getByRole('heading', { name: 'Accounts' }).evaluate((el) => el.scrollIntoView({ block: 'start' }))
          await shoot(app, 'settings-advanced', { top: size.fullPage })
          // A sheet: adding an account (Cancel and the action at its foot).
          await app.getByRole('button', { name: 'Add account…' }).click()
          await expect(app.getByRole('dialog', { name: 'Add an account' })).toBeVisible()
          await shoot(app, 'settings-sheet', { top: false })
          await app.keyboard.press('Escape')
        })

        test('nothing new, then budgets with meters', async ({ app, host }) => {
          const { projectId } = await settledDemo(app, host)
          await openHash(app, '#/now')
          await app.getByRole('button', { name: 'Mark all seen' }).click()
          await expect(app.getByText('All caught up')).toBeVisible()
          // The pointer off the buttons, so no tooltip is left where the clicked one was.
          await app.mouse.move(0, 0)
          await shoot(app, 'now-empty')

          // One meter well under its limit, one near it: the limits follow what the frozen demo spent.
          const spent = await invoke(app, 'costs:report', {
            since: '2026-11-01',
            until: FROZEN.slice(0, 10),
            grouping: 'project',
            stackBy: 'project',
            complete: true
          })
          const total = spent.report.totals.costUsd
          const portfolio = spent.report.rows.find((r) => r.key === projectId)?.costUsd ?? 0
          await invoke(app, 'budget:save', {
            budget: { projectId: null, period: 'month', limitUsd: Math.max(1, Math.ceil(total * 3)), warnRatio: 0.8 }
          })
          await invoke(app, 'budget:save', {
            budget: {
              projectId,
              period: 'total',
              limitUsd: Math.max(0.5, Math.ceil(portfolio * 1.1 * 100) / 100),
              warnRatio: 0.8
            }
          })
          await invoke(app, 'monitor:poll-now')
          await expect(app.getByRole('list', { name: 'Budgets' }).locator('li')).toHaveCount(2)
          await shoot(app, 'now-budgets')
          await openHash(app, '#/costs')
          await expect(app.getByRole('meter').first()).toBeVisible()
          // Budgets head the Costs screen: from the top.
          await shoot(app, 'budgets')
        })

        // The demo's accounts of other services beside Workser's: their tasks waiting for you head Now; a plan's task
        // screen, and the Reply sheet on a question.
        if (size.suffix === '') {
          test.describe('with the agent services', () => {
            test.use({ hostOptions: { ...FROZEN_HOST, demo: true, agentDemo: true } })
            test('agent tasks waiting for you', async ({ app, host }) => {
              await settledDemo(app, host)
              // The demo's question is asked later on the fakes' clock: one asked a while ago, now.
              host.agents.jules.fake.control.addTask({
                title: 'Localise the sign-up form',
                repository: 'myorg/webapp',
                script: 'ask',
                agoMs: 120_000
              })
              await invoke(app, 'monitor:poll-now')
              await openHash(app, '#/now')
              const needs = app.getByRole('list', { name: 'Needs you' }).locator('li')
              await expect(needs.first()).toHaveAttribute('data-kind', 'agent-waiting')
              await shoot(app, 'now-agents')
              await needs.filter({ hasText: 'Approve the plan' }).first().getByRole('link').first().click()
              await expect(app.getByTestId('agent-waiting')).toBeVisible()
              await shoot(app, 'agent-task')
              await app.getByRole('link', { name: 'Back to Now' }).click()
              // A question Jules asked (it takes a reply; GitHub's does not).
              await needs.filter({ hasText: 'Localise the sign-up form' }).first().getByRole('link').first().click()
              await app.getByRole('button', { name: 'Reply…' }).click()
              await expect(app.getByRole('dialog', { name: /^Reply to / })).toBeVisible()
              await app.getByLabel('Your reply').fill('Use British English throughout, and keep the labels short.')
              await shoot(app, 'agent-reply', { top: false })
            })
          })
        }

        // Devin's session waiting for approval, its cost in ACUs; Cursor's run with its tool calls arrived live, one chosen.
        // Each by its own route, as the Workser task is (wide, the screen itself rather than beside Now's list).
        test.describe('Devin and Cursor', () => {
          test.use({ hostOptions: { ...FROZEN_HOST, demo: true, agentDemo: true } })
          test('a Devin session waiting for approval, a Cursor run followed live', async ({ app, host }) => {
            await settledDemo(app, host)
            const openAgentTask = async (title: string) => {
              const task = (await invoke(app, 'app:get-state')).agentTasks.find((t) => t.title === title)!
              await openHash(
                app,
                `#/accounts/${encodeURIComponent(task.connectionId)}/tasks/${encodeURIComponent(task.id)}`
              )
            }
            await openAgentTask('Rotate the staging credentials')
            await expect(app.getByTestId('agent-waiting')).toBeVisible()
            await expect(app.getByTestId('agent-cost')).toContainText('ACU')
            await expect(app.locator('[data-step-id]').first()).toBeVisible()
            await shoot(app, 'agent-task-devin')

            // Its ACUs on Costs, in their own unit beside the Workser account's dollars.
            await openHash(app, '#/costs')
            await expect(app.getByRole('region', { name: 'Agent accounts' })).toContainText('ACU')
            await shoot(app, 'costs-agents')

            // A Cursor run started now (the fake's clock brought to the frozen time), its tool calls falling due while
            // its task is open.
            const cursor = host.agents.cursor.fake.control
            cursor.advance(SETTLE_MS)
            cursor.addTask({ title: 'Speed up the image upload', repository: 'myorg/webapp', script: 'run-forever' })
            cursor.advance(3_000)
            await invoke(app, 'monitor:poll-now')
            await openAgentTask('Speed up the image upload')
            await expect(app.getByTestId('agent-live')).toBeVisible()
            cursor.advance(20_000)
            const rows = app.getByRole('region', { name: 'Step list' }).locator('[data-step-id]')
            await expect(rows.filter({ hasText: 'run_terminal_cmd' })).toBeVisible()
            await rows.filter({ hasText: 'edit_file' }).click()
            await expect(app.locator('#step-detail h3')).toHaveText('edit_file')
            await app.mouse.move(0, 0)
            await shoot(app, 'agent-task-cursor-live')
          })
        })

        test('a waiting task', async ({ app, host }) => {
          const { projectId } = await settledDemo(app, host)
          const queued = host.service.control.addTask(projectId, { name: 'Write the README', status: 'todo' })
          await invoke(app, 'monitor:poll-now')
          await openHash(app, `#/projects/${projectId}`)
          await expect(app.locator(`[data-task-id="${queued.id}"]`)).toBeVisible()
          await shoot(app, 'project-waiting')
          await openHash(app, `#/projects/${projectId}/tasks/${queued.id}`)
          await expect(app.getByRole('heading', { name: 'Write the README' }).first()).toBeAttached()
          await shoot(app, 'task-waiting')
        })

        // Against what holds once every form is a sheet (a modal dialog) and account errors are a banner.
        test('a sheet', async ({ app, host }) => {
          const { projectId } = await settledDemo(app, host)
          await openHash(app, `#/projects/${projectId}`)
          await chooseFromMenu(app, 'More actions', 'Publish')
          await expect(app.getByRole('dialog')).toBeVisible()
          await shoot(app, 'sheet', { top: false })
        })

        // A rejected key is the banner's; what is one project's own (it is gone) is a line on it and its row's meta.
        test("a project's own error, on the project and in its row", async ({ app, host }) => {
          const { projectId } = await settledDemo(app, host)
          host.service.control.setFaults({
            rules: [{ kind: 'error', status: 404, pathPrefix: `/projects/${projectId}` }]
          })
          await invoke(app, 'monitor:poll-now')
          await openHash(app, `#/projects/${projectId}`)
          await expect(app.getByTestId('error-line').first()).toBeVisible()
          await shoot(app, 'error')
          await openHash(app, '#/projects')
          await expect(app.locator(`[data-project-id="${projectId}"] [data-error-kind="not_found"]`)).toBeVisible()
          await shoot(app, 'error-row')
        })

        test('the error banner', async ({ app, host }) => {
          await settledDemo(app, host)
          host.service.control.setFaults({ rules: [{ kind: 'error', status: 401, pathPrefix: '/' }] })
          await invoke(app, 'monitor:poll-now')
          await openHash(app, '#/now')
          await expect(app.getByRole('alert').first()).toBeVisible()
          await shoot(app, 'error-banner')
        })
      })
    })
  }
}
