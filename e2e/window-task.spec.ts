import type { Page } from '@playwright/test'
import { taskCost } from '../src/shared/cost'
import { META_CONTENT_SECURITY_POLICY } from '../src/shared/csp'
import { formatDuration, formatMoney, formatUsdFixed, usdColumnDecimals } from '../src/shared/format'
import type { Task } from '../src/shared/service'
import { stepStatusLabel } from '../src/shared/status'
import { stepIcon } from '../src/shared/step-icon'
import { describeStepMetadata } from '../src/shared/step-metadata'
import type { TaskSummary } from '../src/shared/task-summary'
import { expect, test } from './support/fixtures'
import { DEFAULT_WINDOW, definitionOf, invoke, openHash, projectIdByName } from './window.helpers'

test.use({ hostOptions: { demo: true } })

function lastActivity(task: Task): number {
  return Math.max(
    Date.parse(task.updated_at),
    Date.parse(task.created_at),
    ...task.steps.map((s) => Date.parse(s.updated_at))
  )
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
  // The project's chips (All · Running · Failed) and its search, which opens from an icon button.
  const chip = (name: RegExp) => app.getByRole('group', { name: 'Show tasks' }).getByRole('button', { name })
  await chip(/^Failed/).click()
  await expect(rows).toHaveCount(failed.length)
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))).toEqual(
    newestFirst.filter((id) => failed.some((t) => t.id === id))
  )

  await chip(/^All/).click()
  await app.getByRole('button', { name: 'Search tasks' }).click()
  await app.getByLabel('Search tasks').fill('CASE study')
  await expect(rows).toHaveCount(tasks.filter((t) => t.name.toLowerCase().includes('case study')).length)
  await app.getByLabel('Search tasks').fill('nothing like this')
  await expect(app.getByText('No task matches.', { exact: true })).toBeVisible()
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
  const ordered = [...details.steps].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id)
  )
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
    if (view.kind === 'generic')
      for (const [key] of view.entries) await expect(panel.getByText(key, { exact: true })).toBeVisible()
  }
  expect(seen.size).toBeGreaterThan(1)

  const cost = taskCost(details.usages, task.total_price)
  expect(cost.mismatch).toBeNull()
  const totals = app.locator('dl.totals')
  // A summary in cents; the records' sum only where it differs (it does not here).
  await expect(definitionOf(totals, 'Task total')).toHaveText(formatMoney(task.total_price))
  await expect(totals).not.toContainText('Sum of records')
  await expect(definitionOf(totals, 'Calls')).toHaveText(String(details.usages.length))
  // A row per model (ui/ListRow), not a table.
  await expect(app.getByRole('list', { name: 'By model' }).getByRole('listitem')).toHaveCount(cost.byModel.length)
  await expect(app.getByTestId('cost-mismatch')).toHaveCount(0)

  // The records are one click away, each to the service's decimals.
  await expect(app.locator('[data-usage-id]')).toHaveCount(0)
  const show = app.getByRole('button', { name: `Show ${details.usages.length} calls` })
  await expect(show).toHaveAttribute('aria-expanded', 'false')
  await show.click()
  await expect(app.getByRole('heading', { name: `Usage records (${details.usages.length})` })).toBeVisible()
  await expect(app.locator('[data-usage-id]')).toHaveCount(Math.min(details.usages.length, 50))
  const recordDecimals = usdColumnDecimals(details.usages.map((u) => u.final_price))
  expect(recordDecimals).toBeGreaterThan(2)
  const first = details.usages[0]!
  await expect(app.locator(`[data-usage-id="${first.id}"]`)).toContainText(
    formatUsdFixed(first.final_price, recordDecimals)
  )
  await app.getByRole('button', { name: 'Hide the calls' }).click()
  await expect(app.locator('[data-usage-id]')).toHaveCount(0)
})

test('what a task was asked is one closed line, so at the window’s size the first step starts near the top', async ({
  app,
  host
}) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const requirement = 'Add a contact form.\nIt sends to the studio’s address and says thanks.\nNo captcha.'
  const task = host.service.control.addTask(projectId, {
    name: 'Contact form',
    text_requirement: requirement,
    status: 'completed'
  }) as Task
  await app.setViewportSize(DEFAULT_WINDOW)
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
  const asked = app.getByRole('button', { name: 'What it was asked' })
  await expect(asked).toHaveAttribute('aria-expanded', 'false')
  await expect(app.getByTestId('task-requirement')).toBeHidden()
  const first = (await app.locator('[data-step-id]').first().boundingBox())!
  expect(first.y).toBeLessThan(DEFAULT_WINDOW.height / 3)
  await asked.click()
  await expect(app.getByTestId('task-requirement')).toHaveText(requirement)
})

test('the steps are a timeline: each tool its icon, the failed step standing out and done steps quiet', async ({
  app,
  host
}) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const task = host.service.control.addTask(projectId, {
    name: 'Broken build',
    status: 'failed',
    script: 'fail'
  }) as Task
  const details = await invoke(app, 'task:details', { taskId: task.id })
  const failed = details.steps.find((s) => s.status === 'failed')
  const done = details.steps.find((s) => s.status === 'completed')
  if (!failed || !done) throw new Error('the failed task has no failed and completed steps')
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
  // The task's status is the bar's icon.
  await expect(app.getByRole('banner').getByRole('img', { name: 'Failed' })).toBeVisible()

  const failedRow = app.locator(`[data-step-id="${failed.id}"]`)
  await expect(failedRow.locator('.state')).toHaveText('Failed')
  await expect(failedRow.locator('.step-icon')).toHaveClass(/\bfailed\b/)
  const doneRow = app.locator(`[data-step-id="${done.id}"]`)
  await expect(doneRow.locator('.state')).toHaveCount(0)
  await expect(doneRow.locator('.step-icon')).toHaveClass(/\bcompleted\b/)
  // The status is still said to a screen reader, and the failed step looks different from a done one.
  await expect(doneRow).toHaveAccessibleName(
    new RegExp(`^${done.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} Completed, `)
  )
  const colour = (row: typeof failedRow): Promise<string> =>
    row
      .locator('.step-icon')
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color
      )
  expect(await colour(failedRow)).not.toBe(await colour(doneRow))

  // Each step's icon is the one its tool maps to.
  const lucide = {
    read: 'file-text',
    write: 'file-pen',
    list: 'folder-open',
    command: 'square-terminal',
    replace: 'replace',
    message: 'message-square',
    look: 'scan-eye',
    research: 'search',
    draw: 'image-plus',
    tool: 'wrench',
    step: 'circle-small'
  } as const
  for (const step of details.steps) {
    await expect(app.locator(`[data-step-id="${step.id}"] svg`)).toHaveClass(
      new RegExp(`lucide-${lucide[stepIcon(step)]}\\b`)
    )
  }
})

test('a running task updates live when its status changes', async ({ app, host }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const task = host.service.control.addTask(projectId, {
    name: 'Live task',
    status: 'in_progress',
    script: 'run-forever'
  })
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
  const status = app.getByRole('banner').getByRole('img')
  await expect(status).toHaveAccessibleName('In progress')

  host.service.control.setTaskStatus(task.id, 'failed')
  // The poll that sees it is asked for (not waited for); the screen follows without a reload.
  await invoke(app, 'monitor:poll-now')
  await expect(status).toHaveAccessibleName('Failed')
})

test('navigate:task (a notification click) opens that task', async ({ app, host }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const [task] = await invoke(app, 'project:tasks', { projectId })
  await expect(app.getByRole('heading', { name: 'Now', level: 1 })).toBeVisible()
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
  await expect(page.getByRole('heading', { name: 'Now', level: 1 })).toBeVisible()
  const projectId = await projectIdByName(page, 'Recipe Box')
  const [task] = await invoke(page, 'project:tasks', { projectId })
  for (const hash of [
    '#/projects',
    `#/projects/${projectId}`,
    `#/projects/${projectId}/tasks/${task!.id}`,
    '#/costs',
    '#/settings'
  ]) {
    await openHash(page, hash)
    await expect(page.locator('main h1').first()).toBeVisible()
  }
  expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toBe(
    META_CONTENT_SECURITY_POLICY
  )
  expect(refused).toEqual([])
})

test('a task whose total disagrees with its records shows the flag with both figures', async ({ app, host }) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const task = host.service.control.addTask(projectId, { name: 'Skewed total', status: 'completed' })
  const details = await invoke(app, 'task:details', { taskId: task.id })
  const sum = details.usages.reduce((s, u) => s + u.final_price, 0)
  const reported = Math.round((sum + 0.75) * 1e6) / 1e6
  host.service.control.setTaskTotalPrice(task.id, reported)
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)

  const flag = app.getByTestId('cost-mismatch')
  await expect(flag).toBeVisible()
  await expect(flag).toContainText('do not add up')
  const decimals = usdColumnDecimals([reported, sum, 0.75])
  await expect(flag.getByTestId('mismatch-sum')).toHaveText(formatUsdFixed(sum, decimals))
  await expect(flag.getByTestId('mismatch-total')).toHaveText(formatUsdFixed(reported, decimals))
  await expect(flag).toContainText(`a difference of ${formatUsdFixed(0.75, decimals)}`)
  await expect(definitionOf(app.locator('dl.totals'), 'Task total')).toHaveText(formatMoney(reported))
})

const KNOWN_TOOLS = new Set([
  'read_file_from_sandbox',
  'write_file_to_sandbox',
  'get_list_of_files_in_sandbox',
  'run_command_in_sandbox',
  'replace_text_in_files_sandbox'
])

test('a step of an unknown tool shows its tool and every key and value; a step shows its duration', async ({
  app,
  host
}) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  // The plans are seeded, so the same attempt finds the same task every run.
  let found: { task: Task; step: Task['steps'][number] } | undefined
  for (let i = 0; i < 30 && !found; i++) {
    const task = host.service.control.addTask(projectId, { name: `Tool hunt ${i}`, status: 'completed' }) as Task
    const step = task.steps.find((s) => typeof s.metadata.tool === 'string' && !KNOWN_TOOLS.has(s.metadata.tool))
    if (step) found = { task, step }
  }
  if (!found) throw new Error('No task with an unknown tool in 30 seeded tasks')
  const { task, step } = found
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)
  const row = app.locator(`[data-step-id="${step.id}"]`)
  const expectedDuration = formatDuration(Date.parse(step.updated_at) - Date.parse(step.created_at))
  await expect(row.locator('.step-time')).toHaveText(expectedDuration)
  await row.click()

  const panel = app.locator('#step-detail')
  await expect(panel.getByRole('heading', { name: step.name })).toBeVisible()
  await expect(panel).toContainText(`Tool: ${String(step.metadata.tool)}`)
  const entries = Object.entries(step.metadata).filter(([key]) => key !== 'tool')
  expect(entries.length).toBeGreaterThan(0)
  const terms = panel.locator('dl.details').first().locator('dt')
  const values = panel.locator('dl.details').first().locator('dd')
  await expect(terms).toHaveText(entries.map(([key]) => key))
  await expect(values).toHaveText(
    entries.map(([, value]) => (typeof value === 'string' ? value : JSON.stringify(value)))
  )
  await expect(definitionOf(panel.locator('dl.details').last(), 'Duration')).toHaveText(expectedDuration)
  // The step's status in words, and its times in the window's one date form ("Nov 26", or "today 2:05 PM").
  await expect(panel.getByTestId('step-status')).toHaveText(stepStatusLabel(step.status, step.status_raw))
  await expect(panel.locator('dl.details').last().locator('dd').first()).toHaveText(
    /^(today \d{1,2}:\d{2}(\s?[AP]M)?|[A-Z][a-z]{2} \d{1,2})$/
  )
})

test('steps: a short list is drawn whole with no box scrolling inside; the detail sits beside it when wide, below it when narrow', async ({
  app
}) => {
  const projectId = await projectIdByName(app, 'Portfolio site')
  const tasks = await fullTasks(app, projectId, await invoke(app, 'project:tasks', { projectId }))
  const task = tasks.filter((t) => t.status === 'completed').sort((a, b) => b.steps.length - a.steps.length)[0]!
  expect(task.steps.length).toBeGreaterThan(8)
  await app.setViewportSize({ width: 1200, height: 700 })
  await openHash(app, `#/projects/${projectId}/tasks/${task.id}`)

  const list = app.getByRole('region', { name: 'Step list' })
  const rows = app.locator('[data-step-id]')
  await expect(rows).toHaveCount(task.steps.length)
  const box = await list.evaluate((el) => ({
    scroll: el.scrollHeight,
    client: el.clientHeight,
    tab: el.getAttribute('tabindex')
  }))
  expect(box.scroll).toBeLessThanOrEqual(box.client)
  expect(box.tab).toBeNull()

  // Wide: the detail is to the right of the list, level with the top of it.
  await rows.nth(task.steps.length - 2).click()
  const detail = app.locator('#step-detail section')
  await expect(detail).toBeVisible()
  const listBox = (await list.boundingBox())!
  const detailBox = (await detail.boundingBox())!
  expect(detailBox.x).toBeGreaterThanOrEqual(listBox.x + listBox.width)
  expect(detailBox.y).toBeLessThan(listBox.y + listBox.height)

  // Narrow: right below the list, and scrolled into view.
  await app.setViewportSize({ width: 800, height: 700 })
  await rows.nth(1).click()
  await expect(detail).toBeVisible()
  const narrowList = (await list.boundingBox())!
  const narrowDetail = (await detail.boundingBox())!
  expect(narrowDetail.y).toBeGreaterThanOrEqual(narrowList.y + narrowList.height)
  expect(narrowDetail.y - (narrowList.y + narrowList.height)).toBeLessThan(40)
  await expect(detail).toBeInViewport()
})

test('the way back names the task’s project as everywhere else: a project the service gives no name is shown by its id', async ({
  app,
  host
}) => {
  const project = host.service.control.createProject({ name: '' })
  const task = host.service.control.addTask(project.id, { name: 'In a nameless project', status: 'completed' })
  await host.controller.handlers['project:watch']({ projectId: project.id })
  await host.controller.handlers['monitor:poll-now']()
  await expect
    .poll(() => host.controller.getState().projects.find((p) => p.watched.projectId === project.id)?.project?.id)
    .toBe(project.id)
  await openHash(app, `#/projects/${project.id}/tasks/${task.id}`)
  await expect(app.getByRole('heading', { name: 'In a nameless project', level: 1 })).toBeVisible()
  const back = app.getByRole('banner').getByRole('link', { name: `Back to ${project.id}`, exact: true })
  await expect(back).toHaveAttribute('href', `#/projects/${project.id}`)
})
