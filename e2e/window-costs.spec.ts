// The costs screen against the demo: the per-day table and chart agree with costByDay over every
// watched project's tasks (one bar per day, the date labels, the totals), and each money column
// has one precision.
import type { Page } from '@playwright/test'
import { costByDay, localDateKey, type TzOffset } from '../src/shared/cost'
import { formatUsdFixed, usdColumnDecimals } from '../src/shared/format'
import { isActive } from '../src/shared/status'
import type { TaskSummary } from '../src/shared/task-summary'
import { invoke, openHash } from './window.helpers'
import { expect, test } from './support/fixtures'

test.use({ hostOptions: { demo: true } })

const DAYS = 14
const CHART_HEIGHT = 160
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

  // One bar per day, in order, as tall as its share of the highest day.
  const bars = chart.locator('rect.bar')
  await expect(bars).toHaveCount(DAYS)
  expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-date')))).toEqual(keys)
  const max = Math.max(...days.map((d) => d.costUsd))
  const heights = await bars.evaluateAll((els) => els.map((e) => Number(e.getAttribute('height'))))
  heights.forEach((h, i) => expect(h).toBeCloseTo((days[i]!.costUsd / max) * CHART_HEIGHT, 3))

  // Labels: every second day (14 days, at most 7 labels), as MM/DD.
  const labels = keys.filter((_, i) => i % 2 === 0).map((k) => `${k.slice(5, 7)}/${k.slice(8, 10)}`)
  await expect(chart.locator('text.tick')).toHaveText(labels)

  const total = days.reduce((s, d) => s + d.costUsd, 0)
  await expect(chart.locator('desc')).toContainText(`${DAYS} days, ${formatUsdFixed(total, decimals)} in total, at most ${formatUsdFixed(max, decimals)} on one day`)
  await expect(app.locator('figcaption')).toHaveText(`Highest day: ${formatUsdFixed(max, decimals)}`)

  // The table lists every day, newest first, in one precision.
  const rows = app.locator('table.days tbody tr')
  await expect(rows).toHaveCount(DAYS)
  const expected = [...days].reverse().map((d) => [d.date, String(d.taskCount), formatUsdFixed(d.costUsd, decimals)])
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())))
  expect(shown).toEqual(expected)
  expect(new Set(shown.map(([, , cost]) => cost!.length - cost!.indexOf('.'))).size).toBe(1)
})

test('the per-project table gives each money column one precision', async ({ app }) => {
  await settledTasks(app)
  await openHash(app, '#/costs')
  const state = await invoke(app, 'app:get-state')
  const todayDecimals = usdColumnDecimals(state.projects.map((p) => p.costTodayUsd))
  const totalDecimals = usdColumnDecimals(state.projects.map((p) => p.costTotalUsd))
  for (const p of state.projects) {
    const row = app.locator(`tr[data-project-id="${p.watched.projectId}"]`)
    await expect(row.locator('td.num').nth(0)).toHaveText(formatUsdFixed(p.costTodayUsd, todayDecimals))
    await expect(row.locator('td.num').nth(1)).toHaveText(formatUsdFixed(p.costTotalUsd, totalDecimals))
    await expect(row.locator('td.num').first()).toHaveCSS('text-align', 'right')
    await expect(row.locator('td.num').first()).toHaveCSS('font-variant-numeric', 'tabular-nums')
  }
})
