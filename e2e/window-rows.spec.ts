// One row everywhere: on Now, Projects, a project's task list and Costs, every row's meta line is
// one line at the window's default 420 × 640, cut short with an ellipsis rather than wrapped.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { DEFAULT_WINDOW, invoke, openHash, projectIdByName } from './window.helpers'

// With the agent services' demo accounts, so their rows on Now are measured too.
test.use({ hostOptions: { demo: true, agentDemo: true }, viewport: DEFAULT_WINDOW })

interface Box {
  textContent: string | null
  getBoundingClientRect(): { height: number }
}
interface Win {
  getComputedStyle(el: unknown): { lineHeight: string; fontSize: string }
}

/** Every row meta the screen shows, each no taller than one of its lines. */
async function expectOneLineMetas(page: Page, screen: string): Promise<void> {
  // The row's meta (ui/ListRow), and the task list's own before it was one.
  const metas = page.locator('main .list-row .meta, main .task-meta')
  await expect(metas.first(), `${screen}: rows with a meta line`).toBeVisible()
  // A row replaced by a poll while this runs is no longer shown: only what is in the page is measured.
  const measured = await metas.evaluateAll((els) =>
    els
      .filter((el) => (el as unknown as { isConnected: boolean }).isConnected)
      .map((el) => {
        const box = el as unknown as Box
        const style = (globalThis as unknown as Win).getComputedStyle(el)
        const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.45
        return { text: (box.textContent ?? '').trim(), height: box.getBoundingClientRect().height, line }
      })
  )
  for (const m of measured)
    expect(m.height, `${screen}: "${m.text}" takes ${m.height}px, one line is ${m.line}px`).toBeLessThanOrEqual(
      m.line + 1
    )
}

test('one-line metas on Now, Projects, a project’s tasks and Costs', async ({ app, host }) => {
  // A failure that says where it broke and running work, beside the demo's completions; a budget with its pace.
  const recipe = await projectIdByName(app, 'Recipe Box')
  const broken = host.service.control.addTask(recipe, {
    name: 'Add the print stylesheet to every recipe page and the shopping list',
    status: 'in_progress',
    script: 'run-forever'
  })
  host.service.control.addTask(recipe, {
    name: 'Keep going with a long name that will not fit',
    status: 'in_progress',
    script: 'run-forever'
  })
  await invoke(app, 'monitor:poll-now')
  host.service.control.setTaskStatus(broken.id, 'failed')
  await invoke(app, 'monitor:poll-now')
  await invoke(app, 'budget:save', { budget: { projectId: recipe, period: 'month', limitUsd: 0.5, warnRatio: 0.8 } })

  await openHash(app, '#/now')
  await expect(app.locator('[data-kind="failed"]').first()).toBeVisible()
  await expect(app.locator('li.running').first()).toBeVisible()
  await expect(app.locator('[data-kind="agent-waiting"]').first()).toBeVisible()
  await expectOneLineMetas(app, 'Now')

  await openHash(app, '#/projects')
  await expect(app.locator(`[data-project-id="${recipe}"]`)).toBeVisible()
  await expectOneLineMetas(app, 'Projects')

  await openHash(app, `#/projects/${recipe}`)
  await expect(app.locator('[data-task-id]').first()).toBeVisible()
  await expectOneLineMetas(app, 'the project’s tasks')

  await openHash(app, '#/costs')
  await expect(app.getByRole('img', { name: /Cost per day/ })).toBeVisible()
  await expectOneLineMetas(app, 'Costs')
})
