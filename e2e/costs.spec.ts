// The Costs screen against the reference service: its figures checked against sums computed here
// straight from the service's own answers (each call on the local day it was made, total_price
// the authority), every grouping, the chart stacked by project and by model, a task whose records
// disagree with its total_price, and Export CSV through the host's save port; a custom range of
// days (its totals, the rule's inline messages, kept across screens). Each flow runs once at the
// window's default 420 × 640; the wide size checks the layout of the states it reaches.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { formatDay, formatMoney } from '../src/shared/format'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import {
  connect,
  DEFAULT_WINDOW,
  expectNoHorizontalOverflow,
  expectNoViolations,
  expectWideLayout,
  invoke,
  openHash
} from './window.helpers'

test.use({ viewport: DEFAULT_WINDOW })

const DAY_MS = 86_400_000
/** The tests' "now": midday, so the day is the same in any zone within 11 hours of UTC. */
const NOW = '2026-03-18T12:00:00.000Z'

interface RawTask {
  id: string
  total_price: number
  updated_at: string
}
interface RawUsage {
  provider: string
  model: string
  final_price: number
  created_at: string
}

// The page and this process run on the same machine, in the same time zone.
const localDay = (iso: string): string => {
  const at = new Date(iso)
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 10)
}

async function get<T>(host: TestHost, path: string): Promise<T> {
  const res = await fetch(`${host.service.url}${path}`, { headers: { 'x-api-key': host.serviceApiKey } })
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

/** Two watched projects (one named like a spreadsheet formula) and a task whose total_price the records do not reach. */
async function setUp(app: Page, host: TestHost) {
  await connect(app, host)
  const control = host.service.control
  const recipe = control.createProject({ name: 'Recipe Box', firstTask: false })
  const formula = control.createProject({ name: '=HYPERLINK("http://x.test","Garden")', firstTask: false })
  control.addTask(recipe.id, { name: 'Add search', status: 'completed' })
  control.addTask(recipe.id, { name: 'Fix the layout', status: 'failed' })
  const skewed = control.addTask(formula.id, { name: 'Plant list', status: 'completed' })
  control.setTaskTotalPrice(skewed.id, 7.25)
  for (const projectId of [recipe.id, formula.id]) await invoke(app, 'project:watch', { projectId })
  await invoke(app, 'monitor:poll-now')
  return { projectIds: [recipe.id, formula.id], skewed: skewed.id }
}

/** What the screen must show, from the service's records. */
async function expected(host: TestHost, projectIds: string[]) {
  const byDay = new Map<string, number>()
  /** Days with cost that total_price has beyond the records: an estimate there. */
  const estimated = new Map<string, number>()
  const calls = new Map<string, number>()
  let total = 0
  for (const projectId of projectIds) {
    for (const task of await get<RawTask[]>(host, `/projects/${projectId}/tasks`)) {
      const { usages } = await get<{ usages: RawUsage[] }>(host, `/tasks/${task.id}/steps-and-usages`)
      let sum = 0
      for (const u of usages) {
        sum += u.final_price
        byDay.set(localDay(u.created_at), (byDay.get(localDay(u.created_at)) ?? 0) + u.final_price)
        calls.set(`${u.provider} ${u.model}`, (calls.get(`${u.provider} ${u.model}`) ?? 0) + 1)
      }
      if (Math.abs(task.total_price - sum) > 1e-6 * Math.max(1, usages.length)) {
        const day = localDay(task.updated_at)
        byDay.set(day, (byDay.get(day) ?? 0) + task.total_price - sum)
        estimated.set(day, (estimated.get(day) ?? 0) + task.total_price - sum)
      }
      total += task.total_price
    }
  }
  return { byDay, estimated, calls, total, estimatedTotal: [...estimated.values()].reduce((a, b) => a + b, 0) }
}

/** The one Group by menu: open it, choose the rows. */
async function groupBy(app: Page, rows: 'Day' | 'Month' | 'Project' | 'Model' | 'Task'): Promise<void> {
  await app.getByRole('button', { name: /^By (day|month|project|model|task)$/ }).click()
  await app.getByRole('menuitemradio', { name: rows }).click()
  await expect(app.getByRole('button', { name: `By ${rows.toLowerCase()}` })).toBeVisible()
}

const rangeChip = (app: Page, name: string) =>
  app.getByRole('group', { name: 'Range' }).getByRole('button', { name, exact: true })

/** Each row's key and figures, in the order the table had them: label, (calls, tokens,) cost, (tasks). */
const rowCells = (app: Page) =>
  app.locator('.cost-rows li[data-key]').evaluateAll((rows) =>
    rows.map((row) => [
      row.getAttribute('data-key') ?? '',
      ...['label', 'calls', 'tokens', 'cost', 'tasks']
        .map((cell) => row.querySelector(`[data-cell="${cell}"]`))
        .filter((el) => el !== null)
        .map((el) => el.textContent!.replace(/\s+/g, ' ').trim())
    ])
  )

test.describe('the report', () => {
  // Today is the test's own (the app's and the page's clock), not the machine's; the service's
  // clock stands a day before it.
  test.use({
    hostOptions: {
      clockStart: NOW,
      service: { manualClock: true, startTime: new Date(Date.parse(NOW) - DAY_MS).toISOString() }
    }
  })

  test('per day, per model and per task, as the service’s records add up, with Export CSV', async ({ app, host }) => {
    const { projectIds, skewed } = await setUp(app, host)
    const want = await expected(host, projectIds)
    const days = [...want.byDay].filter(([, usd]) => Math.abs(usd) > 1e-9).sort(([a], [b]) => b.localeCompare(a))
    const today = localDay(NOW)
    expect(days.length, 'the seeded tasks cost on some day').toBeGreaterThan(0)

    await openHash(app, '#/costs')
    await expect(app.getByRole('heading', { name: 'Costs', level: 1 })).toBeVisible()
    // Once every record is in, the total is total_price's; only what the skewed task's records do
    // not reach is an estimate (~), on the day it last changed.
    await expect(app.getByTestId('cost-total')).toHaveText(`~${formatMoney(want.total)}`)
    await expect(app.getByRole('status').filter({ hasText: 'Fetching the usage records' })).toHaveCount(0)
    await expect(app.getByTestId('estimate-note')).toContainText(
      `~ includes ${formatMoney(want.estimatedTotal)} estimated`
    )
    // Rows in cents, each day in the one date form; the range as chips, the last 30 days chosen.
    await expect(rangeChip(app, '30d')).toHaveAttribute('aria-pressed', 'true')
    expect(await rowCells(app)).toEqual(
      days.map(([day, usd]) => [
        day,
        formatDay(day, today),
        `${want.estimated.has(day) ? '~' : ''}${formatMoney(usd)}`,
        expect.stringMatching(/^\d+$/)
      ])
    )
    const chart = app.getByRole('img', { name: 'Cost per day by project' })
    await expect(chart).toBeVisible()
    await expect(chart.locator('rect.bar').first()).toBeAttached()
    await expect(app.getByRole('list', { name: 'Chart colours' }).getByRole('listitem')).toHaveText([
      '=HYPERLINK("http://x.test","Garden")',
      'Recipe Box'
    ])
    await expectNoHorizontalOverflow(app, 'costs by day')
    await expectWideLayout(app, 'costs by day', chart)

    await groupBy(app, 'Model')
    await expect(app.getByRole('img', { name: 'Cost per day by model' })).toBeVisible()
    await expect(app.locator('.cost-rows')).toHaveAttribute('data-grouping', 'model')
    const models = (await rowCells(app)).filter(([key]) => key !== '')
    expect(Object.fromEntries(models.map(([, label, callCount]) => [label, Number(callCount)]))).toEqual(
      Object.fromEntries(want.calls)
    )
    // The skewed task's total_price beyond its records is cost no record itemizes: its own row.
    await expect(app.locator('.cost-rows li[data-key=""]')).toContainText('not itemized (estimate)')
    await expectNoHorizontalOverflow(app, 'costs by model')
    await expectWideLayout(app, 'costs by model', app.getByRole('img', { name: 'Cost per day by model' }))

    await groupBy(app, 'Task')
    await expect(app.getByRole('img', { name: 'Cost per day by project' })).toBeVisible()
    const row = app.locator(`.cost-rows li[data-key="${skewed}"]`)
    await expect(row).toContainText('Plant list')
    await expect(row).toContainText(/records \$\d+\.\d{6} · total_price \$7\.250000/)
    await expectNoViolations(app, 'costs by task')

    await app.getByRole('button', { name: 'Export CSV' }).click()
    await expect(app.getByTestId('announcer')).toContainText('Saved the costs as')
    await expect.poll(() => host.records.saved.length).toBe(1)
    const csv = readFileSync(host.records.saved[0]!.path, 'utf8')
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe('task_id,task,project_id,project,cost_usd,estimated_usd,records_usd,total_price_usd')
    // The project's name from the service is shown as text in a spreadsheet, never run.
    expect(lines.find((l) => l.startsWith(skewed))).toContain(`"'=HYPERLINK(""http://x.test"",""Garden"")",7.25,`)
    expect(lines.at(-2)).toMatch(new RegExp(`^,total,,,${Number(want.total.toFixed(6))},`))
  })
})

test('what is not fetched yet is an estimate on the day the task last changed, then replaced by the records', async ({
  app,
  host
}) => {
  await connect(app, host)
  const control = host.service.control
  const project = control.createProject({ name: 'Slow records', firstTask: false })
  const task = control.addTask(project.id, { name: 'Big job', status: 'completed' })
  // The records are held at the service until the test has seen the estimate: the report answers
  // at once, with the task's total_price as an estimate.
  control.setFaults({ rules: [{ kind: 'hold', pathPrefix: `/tasks/${task.id}/steps-and-usages` }] })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, '#/costs')
  await expect(app.getByRole('status').filter({ hasText: 'Fetching the usage records' })).toBeVisible()
  await expect(app.getByTestId('cost-total')).toHaveText(/^~\$/)
  await expect(app.getByTestId('estimate-note')).toBeVisible()
  // Still held after the checks: what they saw was the estimate.
  expect(control.held()).toBeGreaterThan(0)
  // Then the records are in: no estimate left, the same total.
  control.clearFaults()
  control.release()
  await expect(app.getByTestId('estimate-note')).toHaveCount(0)
  await expect(app.getByTestId('cost-total')).toHaveText(/^\$/)
})

test.describe('a custom range', () => {
  // Today is the test's own (the app's and the page's clock). The service's clock starts three
  // days back and is moved a day between tasks, so the seeded tasks cost on days before today,
  // one day after another.
  test.use({
    hostOptions: {
      clockStart: NOW,
      service: { manualClock: true, startTime: new Date(Date.parse(NOW) - 3 * DAY_MS).toISOString() }
    }
  })

  test('custom days: the totals of the days inside, with grouping and Export CSV, kept on the way back; an inline error for to before from', async ({
    app,
    host
  }) => {
    await connect(app, host)
    const control = host.service.control
    const project = control.createProject({ name: 'Recipe Box', firstTask: false })
    control.addTask(project.id, { name: 'Three days ago', status: 'completed' })
    control.advance(DAY_MS)
    control.addTask(project.id, { name: 'Two days ago', status: 'completed' })
    control.advance(DAY_MS)
    control.addTask(project.id, { name: 'Yesterday', status: 'completed' })
    await invoke(app, 'project:watch', { projectId: project.id })
    await invoke(app, 'monitor:poll-now')

    const want = await expected(host, [project.id])
    const costDays = [...want.byDay].filter(([, usd]) => Math.abs(usd) > 1e-9).sort(([a], [b]) => a.localeCompare(b))
    expect(costDays.length, 'the seeded tasks cost on at least three days').toBeGreaterThanOrEqual(3)
    // The custom range leaves out the first day with cost: its total is smaller than the whole.
    const from = costDays[1]![0]
    const to = costDays.at(-1)![0]
    const inside = costDays.filter(([day]) => day >= from && day <= to)
    const insideUsd = inside.reduce((sum, [, usd]) => sum + usd, 0)
    expect(insideUsd).toBeLessThan(want.total - 1e-6)
    const today = localDay(NOW)

    const asked: { since?: string; until?: string }[] = []
    app.on('request', (request) => {
      if (request.url().endsWith(`/__ipc/invoke/${encodeURIComponent('costs:report')}`))
        asked.push(request.postDataJSON() as { since?: string; until?: string })
    })

    await openHash(app, '#/costs')
    await expect(app.getByTestId('cost-total')).toHaveText(formatMoney(want.total))

    await rangeChip(app, 'Custom').click()
    const since = app.getByLabel('From', { exact: true })
    const until = app.getByLabel('To', { exact: true })
    // Custom starts from the days shown (the last 30).
    await expect(until).toHaveValue(today)
    await since.fill(from)
    await until.fill(to)
    await app.getByRole('button', { name: 'Apply' }).click()
    await expect(app.getByTestId('cost-total')).toHaveText(formatMoney(insideUsd))
    await expect(app.getByTestId('cost-days')).toContainText(`${formatDay(from, today)} – ${formatDay(to, today)} · `)
    const shownDays = [...inside]
      .reverse()
      .map(([day, usd]) => [day, formatDay(day, today), formatMoney(usd), expect.stringMatching(/^\d+$/)])
    expect(await rowCells(app)).toEqual(shownDays)
    await expectNoHorizontalOverflow(app, 'costs, custom range')
    await expectWideLayout(app, 'costs, custom range', until)

    // Grouping works on the same days.
    await groupBy(app, 'Project')
    await expect(app.locator('.cost-rows')).toHaveAttribute('data-grouping', 'project')
    expect(await rowCells(app)).toEqual([
      [project.id, 'Recipe Box', formatMoney(insideUsd), expect.stringMatching(/^[1-9]\d*$/)]
    ])

    // Export CSV holds the rows shown: the same days, the same cents.
    await groupBy(app, 'Day')
    await expect(app.locator('.cost-rows')).toHaveAttribute('data-grouping', 'day')
    await app.getByRole('button', { name: 'Export CSV' }).click()
    await expect.poll(() => host.records.saved.length).toBe(1)
    expect(host.records.saved[0]!.path).toContain(`agent-tray-costs-${from}-to-${to}-by-day.csv`)
    const csvRows = readFileSync(host.records.saved[0]!.path, 'utf8')
      .split('\r\n')
      .slice(1)
      .filter((line) => /^\d{4}-/.test(line))
      .map((line) => line.split(','))
    // The table shows the newest day first; the file lists days oldest first.
    const shown = (await rowCells(app)).map(([, day, cost, tasks]) => [day, cost, tasks]).reverse()
    expect(csvRows.map(([day, cost, , tasks]) => [formatDay(day!, today), formatMoney(Number(cost)), tasks])).toEqual(
      shown
    )
    expect(csvRows.map(([day, cost]) => [day, Number(cost)])).toEqual(
      inside.map(([day, usd]) => [day, Number(usd.toFixed(6))])
    )

    // The range is kept while the window lives: away and back, still these days.
    await openHash(app, '#/now')
    await expect(app.getByTestId('cost-total')).toHaveCount(0)
    await openHash(app, '#/costs')
    await expect(rangeChip(app, 'Custom')).toHaveAttribute('aria-pressed', 'true')
    await expect(since).toHaveValue(from)
    await expect(until).toHaveValue(to)
    await expect(app.getByTestId('cost-total')).toHaveText(formatMoney(insideUsd))

    // To before from: said at the field, what was typed stays, and no report is asked for.
    const before = new Date(Date.parse(`${from}T12:00:00Z`) - DAY_MS).toISOString().slice(0, 10)
    const askedBefore = asked.length
    await until.fill(before)
    await app.getByRole('button', { name: 'Apply' }).click()
    await expect(app.locator('#cost-until-error')).toHaveText(
      `The last day must not be before the first day (${from}).`
    )
    await expect(until).toHaveAttribute('aria-invalid', 'true')
    await expect(until).toHaveValue(before)
    await expect(since).toHaveValue(from)
    await expectNoHorizontalOverflow(app, 'costs, custom range with an error')
    await expectWideLayout(app, 'costs, custom range with an error', app.locator('#cost-until-error'))
    await expectNoViolations(app, 'costs, custom range with an error')
    // A day after today is refused the same way.
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    await until.fill(tomorrow)
    await expect(app.locator('#cost-until-error')).toHaveText(`The last day must not be after today (${today}).`)
    await app.getByRole('button', { name: 'Apply' }).click()
    await expect(app.getByTestId('cost-total')).toHaveText(formatMoney(insideUsd))
    // Put right, the message goes and the report follows.
    await until.fill(from)
    await expect(app.locator('#cost-until-error')).toHaveCount(0)
    await app.getByRole('button', { name: 'Apply' }).click()
    const fromUsd = want.byDay.get(from)!
    await expect(app.getByTestId('cost-total')).toHaveText(formatMoney(fromUsd))
    // Requests go out in order: the refused Applies asked for nothing before this one.
    expect(asked.slice(askedBefore)[0]).toMatchObject({ since: from, until: from })
    expect(
      asked.every((r) => r.since !== undefined && r.until !== undefined && r.since <= r.until && r.until <= today)
    ).toBe(true)
    // The app keeps the rule with the same today: a range past it is refused there too.
    await expect(
      invoke(app, 'costs:report', { since: from, until: tomorrow, grouping: 'day', stackBy: 'project' })
    ).rejects.toThrow(`after today (${today})`)
  })
})

test('a slow answer for an earlier choice never replaces the report of a later one', async ({ app, host }) => {
  const { projectIds } = await setUp(app, host)
  await openHash(app, '#/costs')
  await expect(app.getByTestId('cost-total')).toBeVisible()
  // The report by model is held until the one by project has been shown.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let answered!: () => void
  const slowAnswered = new Promise<void>((resolve) => (answered = resolve))
  await app.route(
    (url) => decodeURIComponent(url.pathname).endsWith('/__ipc/invoke/costs:report'),
    async (route) => {
      const body = route.request().postDataJSON() as { grouping?: string }
      if (body.grouping !== 'model') return route.continue()
      const response = await route.fetch()
      await held
      await route.fulfill({ response })
      answered()
    }
  )
  await groupBy(app, 'Model')
  await groupBy(app, 'Project')
  const projectRows = () =>
    rowCells(app).then((rows) =>
      rows
        .map(([key]) => key)
        .filter((key) => key !== '')
        .sort()
    )
  await expect.poll(projectRows).toEqual([...projectIds].sort())
  const lateReachedPage = app.waitForResponse(
    (r) =>
      decodeURIComponent(r.url()).endsWith('/__ipc/invoke/costs:report') &&
      (r.request().postDataJSON() as { grouping?: string }).grouping === 'model'
  )
  release()
  await slowAnswered
  await (await lateReachedPage).finished()
  // The late answer has reached the page; two frames later it would have been drawn, had it been taken.
  await app.evaluate(() => {
    // Typed by hand: the e2e code is compiled without the DOM library.
    const frame = (globalThis as unknown as { requestAnimationFrame(cb: () => void): number }).requestAnimationFrame
    return new Promise<void>((resolve) => frame(() => frame(resolve)))
  })
  expect(await projectRows()).toEqual([...projectIds].sort())
  await expect(app.locator('.cost-rows')).toHaveAttribute('data-grouping', 'project')
})
