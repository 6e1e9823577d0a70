// The costs screen against the demo: the per-day table and chart agree with costByDay over every
// watched project's tasks (one bar per day on a y axis of round values, the date labels, the
// totals), each money column has one precision, and days with nothing show a dash.
import type { Page } from '@playwright/test'
import { costByDay, localDateKey, type TzOffset } from '../src/shared/cost'
import { formatUsdFixed, usdColumnDecimals } from '../src/shared/format'
import { isActive } from '../src/shared/status'
import type { TaskSummary } from '../src/shared/task-summary'
import { invoke, openHash } from './window.helpers'
import { expect, test } from './support/fixtures'

test.use({ hostOptions: { demo: true } })

const DAYS = 14
// The page and this process run on the same machine, in the same time zone.
const tz: TzOffset = (at) => -at.getTimezoneOffset()

/** Every watched project's tasks, once none of them is running (so costs stand still). */
async function settledTasks(app: Page): Promise<TaskSummary[]> {
  let tasks: TaskSummary[] = []
  await expect
    .poll(
      async () => {
        const state = await invoke(app, 'app:get-state')
        tasks = []
        for (const p of state.projects) tasks.push(...(await invoke(app, 'project:tasks', { projectId: p.watched.projectId })))
        return tasks.length > 0 && !tasks.some((t) => isActive(t.status))
      },
      { timeout: 45_000, intervals: [1_000] }
    )
    .toBe(true)
  return tasks
}

/** The DAYS calendar days ending today, oldest first ("YYYY-MM-DD"). */
function lastDayKeys(now: number): string[] {
  const today = localDateKey(now, tz)!
  const end = Date.parse(`${today}T00:00:00Z`)
  return Array.from({ length: DAYS }, (_, i) => new Date(end - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10))
}

test('per-day figures and the chart match costByDay over the watched projects', async ({ app }) => {
  const tasks = await settledTasks(app)
  const byDay = new Map(costByDay(tasks, tz).map((d) => [d.date, d]))
  const keys = lastDayKeys(Date.now())
  const days = keys.map((date) => byDay.get(date) ?? { date, costUsd: 0, taskCount: 0 })
  // The demo's history spans several days, all inside the window.
  expect(days.filter((d) => d.taskCount > 0).length).toBeGreaterThan(1)
  expect(days.reduce((n, d) => n + d.taskCount, 0)).toBe(tasks.length)
  const decimals = usdColumnDecimals(days.map((d) => d.costUsd))

  await openHash(app, '#/costs')
  const chart = app.getByRole('img', { name: 'Cost per day of all watched projects' })
  await expect(chart).toBeVisible()

  // One bar per day, in order, in proportion to each other, under a y axis that reaches the highest.
  const bars = chart.locator('rect.bar')
  await expect(bars).toHaveCount(DAYS)
  expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(keys)
  const max = Math.max(...days.map((d) => d.costUsd))
  const heights = await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))))
  const tallest = Math.max(...heights)
  heights.forEach((h, i) => expect(h / tallest).toBeCloseTo(days[i]!.costUsd / max, 3))
  const yTicks = (await chart.locator('text.tick.y').allTextContents()).map((t) => Number(t.replace('$', '')))
  expect(yTicks[0]).toBe(0)
  expect(yTicks.at(-1)!).toBeGreaterThanOrEqual(max)
  // Each bar says its day and value on hover.
  await expect(bars.last().locator('title')).toHaveText(`${keys.at(-1)}: ${formatUsdFixed(days.at(-1)!.costUsd, decimals)}`)
  // Day labels as MM/DD, the newest always.
  const labels = await chart.locator('text.tick.x').allTextContents()
  expect(labels.at(-1)).toBe(`${keys.at(-1)!.slice(5, 7)}/${keys.at(-1)!.slice(8, 10)}`)
  expect(labels.length).toBeGreaterThan(2)

  const total = days.reduce((s, d) => s + d.costUsd, 0)
  await expect(chart.locator('desc')).toContainText(`${DAYS} days, ${formatUsdFixed(total, decimals)} in total, at most ${formatUsdFixed(max, decimals)} on one day`)
  await expect(app.locator('figcaption')).toHaveText(`Highest: ${formatUsdFixed(max, decimals)}`)

  // The table lists every day, newest first, in one precision.
  const rows = app.locator('table.days tbody tr')
  await expect(rows).toHaveCount(DAYS)
  // Days with nothing show a dash, not a column of $0.0000.
  const expected = [...days].reverse().map((d) => [d.date, d.taskCount === 0 ? '–' : String(d.taskCount), d.costUsd === 0 ? '–' : formatUsdFixed(d.costUsd, decimals)])
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())))
  expect(shown).toEqual(expected)
  const amounts = shown.map(([, , cost]) => cost!).filter((c) => c !== '–')
  expect(new Set(amounts.map((cost) => cost.length - cost.indexOf('.'))).size).toBe(1)
})

test('the per-project table gives each money column one precision', async ({ app }) => {
  await settledTasks(app)
  await openHash(app, '#/costs')
  const state = await invoke(app, 'app:get-state')
  const todayDecimals = usdColumnDecimals(state.projects.map((p) => p.costTodayUsd))
  const totalDecimals = usdColumnDecimals(state.projects.map((p) => p.costTotalUsd))
  for (const p of state.projects) {
    const row = app.locator(`tr[data-project-id="${p.watched.projectId}"]`)
    await expect(row.locator('td.num').nth(0)).toHaveText(p.costTodayUsd === 0 ? '–' : formatUsdFixed(p.costTodayUsd, todayDecimals))
    await expect(row.locator('td.num').nth(1)).toHaveText(p.costTotalUsd === 0 ? '–' : formatUsdFixed(p.costTotalUsd, totalDecimals))
    await expect(row.locator('td.num').first()).toHaveCSS('text-align', 'right')
    await expect(row.locator('td.num').first()).toHaveCSS('font-variant-numeric', 'tabular-nums')
  }
})
