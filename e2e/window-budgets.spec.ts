// Budgets in the window against the demo: one set in the Costs screen's Budgets section shows its
// progress bar (warning and limit marked), where it stands, its pace and projection, at the
// default 420 × 640 without sideways scrolling (and the layout wide); removing it takes it away.
import { expect, test } from './support/fixtures'
import { DEFAULT_WINDOW, expectNoHorizontalOverflow, expectWideLayout, invoke, openHash } from './window.helpers'

test.use({ hostOptions: { demo: true }, viewport: DEFAULT_WINDOW })

test("a budget's progress bar shows where it stands", async ({ app }) => {
  // The demo's projects have spent already: a poll asked for (not the next idle one) shows it.
  await expect
    .poll(async () => {
      await invoke(app, 'monitor:poll-now')
      return (await invoke(app, 'app:get-state')).projects.some((p) => p.costTotalUsd > 0)
    })
    .toBe(true)
  await openHash(app, '#/costs')
  const section = app.getByRole('region', { name: 'Budgets', exact: true })
  // No budget yet: one quiet row asks for one, and opens the sheet.
  await section.getByRole('button', { name: 'Set a monthly budget' }).click()

  // All watched projects, in total, with a limit far below what was spent: the limit is reached.
  await section.getByLabel('Per').selectOption('total')
  await section.getByLabel('Limit (USD)').fill('0.0001')
  await section.getByRole('button', { name: 'Save budget' }).click()
  const bar = section.getByRole('meter', { name: 'Total budget of All watched projects' })
  await expect(bar).toBeVisible()
  await expect(bar).toHaveAttribute('aria-valuetext', /spent in total of <\$0\.01: Limit reached/)
  // Spent past the limit: the bar is full and the limit mark sits inside it.
  await expect(bar.locator('rect.fill.over')).toHaveAttribute('width', '100')
  expect(Number(await bar.locator('line.limit-mark').getAttribute('x1'))).toBeLessThan(100)
  await expect(section.getByText(/Pace <?\$[\d.]+\/h over 15 min/)).toBeVisible()
  await expectNoHorizontalOverflow(app, 'costs with a budget')
  await expectWideLayout(app, 'costs with a budget', bar)

  // A monthly one is projected to the month's end (the sheet closed on saving: it opens again).
  await section.getByRole('button', { name: 'Add budget' }).click()
  await section.getByLabel('Per').selectOption('month')
  await section.getByLabel('Limit (USD)').fill('1000')
  await section.getByLabel('Warn at (%)').fill('50')
  await section.getByRole('button', { name: 'Save budget' }).click()
  const monthly = section.getByRole('meter', { name: 'Monthly budget of All watched projects' })
  await expect(monthly).toHaveAttribute('aria-valuetext', /of \$1,?000\.00: Within budget/)
  await expect(monthly.locator('line.warn-mark')).toHaveAttribute('x1', '50')
  await expect(section.getByText(/heading for <?\$[\d.,]+ by the end of the month/)).toBeVisible()
  await expectNoHorizontalOverflow(app, 'costs with two budgets')
  await expectWideLayout(app, 'costs with two budgets', monthly)

  // A bad warning is refused with the reason, nothing saved.
  await section.getByRole('button', { name: 'Add budget' }).click()
  await section.getByLabel('Limit (USD)').fill('5')
  await section.getByLabel('Warn at (%)').fill('150')
  await section.getByRole('button', { name: 'Save budget' }).click()
  await expect(section.getByText(/Enter a warning between 5 and 99 percent/)).toBeVisible()
  expect((await invoke(app, 'app:get-state')).budgets).toHaveLength(2)
  await app.keyboard.press('Escape')

  await section.getByRole('button', { name: 'Remove the total budget of All watched projects' }).click()
  await expect(bar).toHaveCount(0)
  expect((await invoke(app, 'app:get-state')).budgets).toHaveLength(1)
})
