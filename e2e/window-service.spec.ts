// The real service's capabilities in the window, at the default size: watching by link, a
// software product's projects watched several at once, starting a task that is then followed to
// its end; and, against a server without those endpoints, a plain word and everything else working.
import { expect, test } from './support/fixtures'
import { chooseFromMenu, connect, expectNoHorizontalOverflow, expectNoViolations, openHash } from './window.helpers'

test.use({ hostOptions: { service: { manualClock: true } }, viewport: { width: 420, height: 640 } })

test("watching by link says which id it found; a product's projects are listed and watched at once", async ({
  app,
  host
}) => {
  await connect(app, host)
  const first = host.service.control.createProject({
    name: 'Storefront',
    software_product_id: 'prod-shop',
    description: 'The shop itself'
  })
  host.service.control.advance(60_000)
  const second = host.service.control.createProject({ name: 'Admin panel', software_product_id: 'prod-shop' })
  host.service.control.advance(60_000)
  const third = host.service.control.createProject({ name: 'Mail templates', software_product_id: 'prod-shop' })
  await openHash(app, '#/projects')

  // The project's agent interface link holds its id.
  await chooseFromMenu(app, 'Add an existing project', 'Watch an existing project')
  await app.getByLabel('Project ID or link').fill(first.prebuilt_url)
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  // The sheet closes on success; what was found is said as it closes, and the project is in the list.
  await expect(app.getByTestId('announcer')).toContainText(`Found project ID ${first.id} in the link.`)
  await expect(app.getByRole('link', { name: 'Storefront', exact: true })).toBeVisible()

  // Its product is offered; the list marks what is watched and watches the rest at once.
  await chooseFromMenu(app, 'Add an existing project', 'Add from a product')
  await expect
    .poll(() =>
      app.locator('datalist option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))
    )
    .toEqual(['prod-shop'])
  await app.getByLabel('Software product ID').fill('prod-shop')
  await app.getByRole('button', { name: 'List projects' }).click()
  const rows = app.locator('[data-product-project]')
  await expect(rows).toHaveCount(3)
  await expect(rows.first()).toContainText('Mail templates')
  await expect(app.locator(`[data-product-project="${first.id}"]`)).toContainText('watched')
  await expect(app.locator(`[data-product-project="${first.id}"] input`)).toBeDisabled()
  await app.locator(`[data-product-project="${second.id}"] input`).check()
  await app.locator(`[data-product-project="${third.id}"] input`).check()
  await app.getByRole('button', { name: 'Watch 2 projects' }).click()
  await expect
    .poll(() =>
      host.controller
        .getState()
        .projects.map((p) => p.watched.projectId)
        .sort()
    )
    .toEqual([first.id, second.id, third.id].sort())
  await expectNoHorizontalOverflow(app, 'projects with a product listed')
  await expectNoViolations(app, 'projects with a product listed')
})

test('a task started from the window is followed to its end', async ({ app, host }) => {
  await connect(app, host)
  const project = host.service.control.createProject({ name: 'Recipes' })
  await host.controller.handlers['project:watch']({ projectId: project.id })
  await host.controller.pollNow()
  await openHash(app, `#/projects/${project.id}`)
  await app.getByRole('button', { name: 'New task' }).click()
  await app.getByRole('button', { name: 'Start the task' }).click()
  await expect(app.getByText('Give the task a short name.')).toBeVisible()
  await app.getByLabel('Name', { exact: true }).fill('Add a search box')
  await app
    .getByLabel('What the agent should do')
    .fill('A search box above the recipes, matching names and ingredients.')
  await expectNoViolations(app, 'new task form')
  await app.getByRole('button', { name: 'Start the task' }).click()
  const row = app.locator('a.task', { hasText: 'Add a search box' })
  await expect(row).toBeVisible()
  // The service runs it; the app's monitor follows it until it ends, and says so.
  // Ten simulated minutes at a time, each followed by a poll the test waits for, until the row shows the end.
  await expect(async () => {
    host.service.control.advance(10 * 60_000)
    await host.controller.pollNow()
    await expect(row.getByRole('img', { name: /^(Completed|Failed|Cancelled)$/ })).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect.poll(() => host.records.notifications.map((n) => n.body).join('\n')).toContain('Add a search box')
})

test.describe('a server without the optional endpoints', () => {
  test.use({
    hostOptions: { service: { manualClock: true, extensions: false } },
    viewport: { width: 420, height: 640 }
  })

  test('says plainly that it cannot list products or start tasks; watching by id still works', async ({
    app,
    host
  }) => {
    await connect(app, host)
    const project = host.service.control.createProject({ name: 'Plain project' })
    await openHash(app, '#/projects')
    await chooseFromMenu(app, 'Add an existing project', 'Watch an existing project')
    await app.getByLabel('Project ID or link').fill(project.id)
    await app.getByRole('button', { name: 'Watch', exact: true }).click()
    await expect(app.getByRole('link', { name: 'Plain project' })).toBeVisible()
    await chooseFromMenu(app, 'Add an existing project', 'Add from a product')
    await app.getByLabel('Software product ID').fill('anything')
    await app.getByRole('button', { name: 'List projects' }).click()
    await expect(app.getByTestId('product-unsupported')).toContainText(
      'This service cannot list the projects of a software product'
    )

    await openHash(app, `#/projects/${project.id}`)
    await app.getByRole('button', { name: 'New task' }).click()
    await app.getByLabel('Name', { exact: true }).fill('Anything')
    await app.getByLabel('What the agent should do').fill('Anything at all')
    await app.getByRole('button', { name: 'Start the task' }).click()
    await expect(app.getByTestId('task-create-unsupported')).toContainText('does not offer starting tasks')
    await expect(app.getByRole('button', { name: 'Start the task' })).toBeDisabled()
  })
})
