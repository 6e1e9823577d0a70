// An agent account's costs in its own unit on the Costs screen, against the Devin fake over real HTTP: its ACUs
// shown with their unit (this month, today, in total: a session counts in the month it started), never added to USD;
// a "100 ACU this month" budget set from the Budgets section (a refused limit said beside its field, nothing lost),
// showing its level; lowered below what was spent, its limit is reached. At 420 × 640, wide and in both themes.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import { atSize, DEFAULT_WINDOW, expectScreenAccessible, invoke, openHash, WIDE_WINDOW } from './window.helpers'

/** Midday, so the day and month are the same in any zone within 11 hours of UTC; the fakes' clocks stand still. */
const NOW = '2026-03-18T12:00:00.000Z'
test.use({ hostOptions: { service: { manualClock: true, startTime: NOW }, clockStart: NOW }, viewport: DEFAULT_WINDOW })

/** The name the app gives Devin (its descriptor), never written here. */
async function devinName(page: Page): Promise<string> {
  const found = (await invoke(page, 'app:get-state')).services.find((s) => s.kind === 'devin')
  if (!found) throw new Error('the app offers no devin service')
  return found.displayName
}

/** Both themes at the size shown now, for a person to judge (the run's output folder). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.screenshot({ path: test.info().outputPath(`${name}-${colorScheme}.png`), fullPage: true })
  }
  await page.emulateMedia({ colorScheme: null })
}

test('a Devin account’s ACUs show on Costs with their unit, and a 100 ACU monthly budget shows its level', async ({
  app,
  host
}) => {
  const devin = host.agents.devin.fake.control
  // Working so far: 1.5 ACU; finished: 0.5 (the fake's figures). One started last month counts in total only.
  devin.addTask({ title: 'Bump the linter', state: 'working', agoMs: 3_600_000 })
  devin.addTask({ title: 'Fix the docs', state: 'finished', agoMs: 7_200_000 })
  devin.addTask({ title: 'Old migration', state: 'working', agoMs: 40 * 86_400_000 })
  const { fake, apiKey } = host.agents.devin
  await invoke(app, 'connection:save', {
    connection: { name: 'Cognition', baseUrl: fake.baseUrl, publishingDomain: '', service: 'devin' },
    apiKey
  })
  await expect
    .poll(async () => {
      await invoke(app, 'monitor:poll-now')
      return (await invoke(app, 'app:get-state')).agentCosts[0]?.units[0]?.total
    })
    .toBe(3.5)
  const service = await devinName(app)

  await openHash(app, '#/costs')
  const agents = app.getByRole('region', { name: 'Agent accounts' })
  const row = agents.getByRole('listitem').filter({ hasText: 'Cognition' })
  await expect(row).toContainText('Cognition · ACU')
  await expect(row).toContainText('2 ACU this month')
  await expect(row).toContainText('3.5 ACU in total')
  await expect(row.getByRole('img', { name: service })).toBeVisible()
  // No project is watched: no USD report, and no dollar figure for the account.
  await expect(row).not.toContainText('$')

  // A budget in the account's unit: the form names the unit; a refused limit is said beside its field, kept.
  const budgets = app.getByRole('region', { name: 'Budgets', exact: true })
  await budgets.getByRole('button', { name: 'Set a monthly budget' }).click()
  const sheet = app.getByRole('dialog', { name: 'Set a budget' })
  await sheet.getByLabel('For').selectOption({ label: `Cognition (${service})` })
  const limit = sheet.getByLabel('Limit (ACU)')
  await limit.fill('lots')
  await sheet.getByLabel('Warn at (%)').fill('75')
  await sheet.getByRole('button', { name: 'Save budget' }).click()
  await expect(limit).toHaveAttribute('aria-invalid', 'true')
  await expect(sheet.getByText('Enter an amount of ACU up to 1,000,000 ACU, like 100.')).toBeVisible()
  await expect(sheet.getByLabel('Warn at (%)')).toHaveValue('75')
  expect((await invoke(app, 'app:get-state')).agentCosts[0]?.budgets).toEqual([])
  await expectScreenAccessible(app, 'the budget sheet in ACU, refused', limit)
  await shoot(app, 'budget-sheet-acu-refused')

  await limit.fill('100 ACU')
  await sheet.getByRole('button', { name: 'Save budget' }).click()
  await expect(sheet).toHaveCount(0)
  const meter = budgets.getByRole('meter', { name: 'Monthly ACU budget of Cognition' })
  await expect(meter).toHaveAttribute('aria-valuetext', '2 ACU spent this month of 100 ACU: Within budget')
  await expect(budgets.getByText('2 ACU of 100 ACU')).toBeVisible()
  await expect(meter.locator('line.warn-mark')).toHaveAttribute('x1', '75')
  await expectScreenAccessible(app, 'costs with an agent account and its ACU budget', meter)
  await shoot(app, 'costs-agent')
  await atSize(app, WIDE_WINDOW, () => shoot(app, 'costs-agent-wide'))

  // Lowered below what was spent (edited in place: its unit and period stay), the limit is reached and flagged.
  await budgets.getByRole('button', { name: 'Edit the budget Cognition · monthly ACU' }).click()
  const edit = app.getByRole('dialog', { name: 'Edit budget' })
  await expect(edit.getByLabel('For')).toBeDisabled()
  await expect(edit.getByLabel('Limit (ACU)')).toHaveValue('100')
  await edit.getByLabel('Limit (ACU)').fill('2')
  await edit.getByRole('button', { name: 'Save budget' }).click()
  await expect(meter).toHaveAttribute('aria-valuetext', '2 ACU spent this month of 2 ACU: Limit reached')
  await expect(budgets.locator('[data-unit-budget-id]')).toHaveAttribute('data-budget-state', 'over')
  const state = await invoke(app, 'app:get-state')
  expect(state.agentCosts[0]?.budgets.map((b) => [b.budget.unit, b.budget.limit, b.state])).toEqual([
    ['ACU', 2, 'over']
  ])
  // Workser's USD budgets are untouched by it.
  expect(state.budgets).toEqual([])
})
