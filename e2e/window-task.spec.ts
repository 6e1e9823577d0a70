import type { Page } from '@playwright/test'
import { taskCost } from '../src/shared/cost'
import { formatDuration, formatUsdFixed, usdColumnDecimals } from '../src/shared/format'
import type { Task } from '../src/shared/service'
import type { TaskSummary } from '../src/shared/task-summary'
import { describeStepMetadata } from '../src/shared/step-metadata'
import { invoke, openHash, projectIdByName } from './window.helpers'
import { expect, test } from './support/fixtures'
import { META_CONTENT_SECURITY_POLICY } from '../src/shared/csp'

test.use({ hostOptions: { demo: true } })

function lastActivity(task: Task): number {
  return Math.max(Date.parse(task.updated_at), Date.parse(task.created_at), ...task.steps.map((s) => Date.parse(s.updated_at)))
}

/** The full tasks behind the list's summaries, as the service has them. */
async function fullTasks(app: Page, projectId: string, summaries: readonly TaskSummary[]): Promise<Task[]> {
  const tasks: Task[] = []
  for (const summary of summaries) {
    const task = await invoke(app, 'project:task', { projectId, taskId: summary.id })
    if (!task) throw new Error(`project:task has no task ${summary.id}`)
    tasks.push(task)
  }
  return tasks
}

test('a project lists its tasks newest activity first, filtered by status and search', async ({ app }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const tasks = await fullTasks(app, projectId, await invoke(app, 'project:tasks', { projectId }))
  await openHash(app, `#/projects/${projectId}`)
  const rows = app.locator('[data-task-id]')
  await expect(rows).toHaveCount(tasks.length)
  const newestFirst = [...tasks].sort((a, b) => lastActivity(b) - lastActivity(a)).map((t) => t.id)
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))).toEqual(newestFirst)

  const failed = tasks.filter((t) => t.status === 'failed')
  await app.getByLabel('Status').selectOption('failed')
  await expect(rows).toHaveCount(failed.length)
  await expect(rows.first()).toContainText('Failed')

  await app.getByLabel('Status').selectOption('all')
  await app.getByLabel('Search tasks').fill('CASE study')
  await expect(rows).toHaveCount(tasks.filter((t) => t.name.toLowerCase().includes('case study')).length)
  await app.getByLabel('Search tasks').fill('nothing like this')
  await expect(app.getByText('No task matches this filter.')).toBeVisible()
})

test('a task shows its steps, each tool its own way, and its usage and costs', async ({ app }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const tasks = await fullTasks(app, projectId, await invoke(app, 'project:tasks', { projectId }))
  const task = tasks.find((t) => t.status === 'completed' && t.steps.length > 0)!
  const details = await invoke(app, 'task:details', { taskId: task.id })
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)

  await expect(app.getByRole('heading', { name: task.name, level: 1 })).toBeVisible()
  await expect(app.getByRole('heading', { name: `Steps (${details.steps.length})` })).toBeVisible()

  // Every kind of tool rendering this task has: open the step from the keyboard and read its details.
  const ordered = [...details.steps].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id))
  const seen = new Set<string>()
  await app.locator('[data-step-id]').first().focus()
  let at = 0
  for (const [index, step] of ordered.entries()) {
    const view = describeStepMetadata(step.metadata)
    if (seen.has(view.kind)) continue
    seen.add(view.kind)
    for (; at < index; at++) await app.keyboard.press('ArrowDown')
    await expect(app.locator(`[data-step-id="${step.id}"]`)).toBeFocused()
    await app.keyboard.press('Enter')
    const panel = app.locator('#step-detail')
    await expect(panel.getByRole('heading', { name: step.name })).toBeVisible()
    if (view.kind === 'file') await expect(panel.locator('code')).toHaveText(view.path)
    if (view.kind === 'directory') await expect(panel).toContainText(view.path === '' ? '(sandbox root)' : view.path)
    if (view.kind === 'command') await expect(panel.locator('pre')).toHaveText(view.command)
    if (view.kind === 'replace') {
      await expect(panel).toContainText(view.pattern)
      await expect(panel).toContainText(view.newValue)
      for (const file of view.files) await expect(panel.getByText(file, { exact: true })).toBeVisible()
    }
    if (view.kind === 'generic') for (const [key] of view.entries) await expect(panel.getByText(key, { exact: true })).toBeVisible()
  }
  expect(seen.size).toBeGreaterThan(1)

  const cost = taskCost(details.usages, task.total_price)
  const decimals = usdColumnDecimals([task.total_price, cost.totalPriceUsd, cost.usageSumUsd, cost.mismatch?.difference])
  const totals = app.locator('dl.totals')
  await expect(totals).toContainText(`Task total${formatUsdFixed(task.total_price, decimals)}`)
  await expect(totals).toContainText(`Sum of records${formatUsdFixed(cost.usageSumUsd, decimals)}`)
  await expect(totals).toContainText(`Calls${details.usages.length}`)
  await expect(app.getByRole('heading', { name: `Usage records (${details.usages.length})` })).toBeVisible()
  await expect(app.locator('table tbody tr')).toHaveCount(cost.byModel.length)
  await expect(app.getByTestId('cost-mismatch')).toHaveCount(cost.mismatch ? 1 : 0)
})

test('a running task updates live when its status changes', async ({ app, host }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const task = host.service.control.addTask(projectId, { name: 'Live task', status: 'in_progress', script: 'run-forever' })
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
  await expect(app.getByTestId('task-status')).toHaveText('In progress')

  host.service.control.setTaskStatus(task.id, 'failed')
  await expect(app.getByTestId('task-status')).toHaveText('Failed', { timeout: 15_000 })
  await expect(app.locator('.spread .row').getByText('Failed')).toBeVisible()
})

test('navigate:task (a notification click) opens that task', async ({ app, host }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const [task] = await invoke(app, 'project:tasks', { projectId })
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  host.controller.openTask(projectId, task!.id)
  await expect(app.getByRole('heading', { name: task!.name, level: 1 })).toBeVisible()
  expect(new URL(app.url()).hash).toBe(`#/projects/${projectId}/tasks/${task!.id}`)
})

test('every screen runs under the strict CSP (no inline style or script refused)', async ({ page, host }) => {
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  await page.goto(host.url)
  await expect(page.getByRole('link', { name: 'Recipe Box' })).toBeVisible()
  const projectId = await projectIdByName(page, 'Recipe Box')
  const [task] = await invoke(page, 'project:tasks', { projectId })
  for (const hash of [`#/projects/${projectId}`, `#/projects/${projectId}/tasks/${task!.id}`, '#/costs', '#/settings']) {
    await openHash(page, hash)
    await expect(page.locator('main h1')).toBeVisible()
  }
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(META_CONTENT_SECURITY_POLICY)
  expect(refused).toEqual([])
})
