import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/fixtures'
import {
  chooseFromMenu,
  connect,
  DEFAULT_WINDOW,
  expectNoViolations,
  invoke,
  openHash,
  WIDE_WINDOW
} from './window.helpers'

interface Styled {
  style: { color: string }
  remove(): void
}
interface Win {
  document: { createElement(tag: string): Styled; body: { append(el: Styled): void } }
  getComputedStyle(el: unknown): { color: string }
}

/** The colour a CSS custom property of the page resolves to, as rgb(). */
async function cssColor(page: Page, variable: string): Promise<string> {
  return page.evaluate((v) => {
    const win = globalThis as unknown as Win
    const probe = win.document.createElement('span')
    probe.style.color = `var(${v})`
    win.document.body.append(probe)
    const color = win.getComputedStyle(probe).color
    probe.remove()
    return color
  }, variable)
}

async function colorOf(locator: Locator): Promise<string> {
  return locator.evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el).color)
}

test.beforeEach(async ({ app, host }) => {
  await connect(app, host)
  await openHash(app, '#/projects')
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
})

test('create a project with every field of the create body', async ({ app }) => {
  await app.getByRole('button', { name: 'New project' }).click()
  // A sheet: its fields and, at its foot, Create project.
  const form = app.getByRole('dialog', { name: 'Create a project' })
  await form.getByRole('button', { name: 'Create project' }).click()
  await expect(form.getByText('Give the project a name.')).toBeVisible()

  await form.getByLabel('Name (required)').fill('Bakery site')
  await form.getByLabel('Software product ID').fill('sp-bakery')
  await form.getByLabel('User e-mail').fill('baker@example.com')
  await form.getByLabel('Return URL').fill('https://client.example.com/bakery')
  await form.getByLabel('Reference ID').fill('BAK-1')
  await form.getByLabel('Description').fill('Bread and cakes')
  await form.getByLabel('Text requirement').fill('A page per cake with photos.')
  await form.getByRole('textbox', { name: 'Image URL 1', exact: true }).fill('https://img.example.com/one.png')
  await form.getByRole('button', { name: 'Add an image URL' }).click()
  await form.getByRole('textbox', { name: 'Image URL 2', exact: true }).fill('not a url')
  await form.getByRole('button', { name: 'Add an image URL' }).click()
  await form.getByRole('textbox', { name: 'Image URL 3', exact: true }).fill('https://img.example.com/three.png')
  await form.getByRole('button', { name: 'Create project' }).click()
  await expect(form.getByText('Enter a full http:// or https:// image address.')).toBeVisible()
  await form.getByRole('button', { name: 'Remove image URL 2' }).click()
  await expect(form.getByRole('textbox', { name: 'Image URL 2', exact: true })).toHaveValue(
    'https://img.example.com/three.png'
  )
  await form.getByRole('button', { name: 'Create project' }).click()

  await expect(app.getByRole('heading', { name: 'Bakery site', level: 1 })).toBeVisible()
  const details = app.locator('dl.details').first()
  await expect(details).toContainText('baker@example.com')
  await expect(details).toContainText('https://client.example.com/bakery')
  await expect(details).toContainText('BAK-1')
  await expect(details).toContainText('sp-bakery')

  // The service got the whole body: the text requirement started a first task with both images.
  const projectId = decodeURIComponent(new URL(app.url()).hash.split('/')[2]!)
  const project = await invoke(app, 'project:get', { projectId })
  expect(project).toMatchObject({
    name: 'Bakery site',
    description: 'Bread and cakes',
    project_type: 'web',
    ref_id: 'BAK-1'
  })
  const [first] = await invoke(app, 'project:tasks', { projectId })
  const task = await invoke(app, 'project:task', { projectId, taskId: first!.id })
  expect(task?.files_requirement.map((f) => f.url)).toEqual([
    'https://img.example.com/one.png',
    'https://img.example.com/three.png'
  ])
  const state = await invoke(app, 'app:get-state')
  expect(state.projects.map((p) => p.watched.projectId)).toContain(projectId)
})

test('watch an existing project by ID, then stop watching it', async ({ app, host }) => {
  const outside = host.service.control.createProject({ name: 'Made elsewhere' })
  // Behind the "+" beside New project, not half the screen.
  await expect(app.getByLabel('Project ID')).toHaveCount(0)
  await chooseFromMenu(app, 'Add an existing project', 'Watch an existing project')
  await expect(app.getByLabel('Project ID')).toBeFocused()
  await app.getByLabel('Project ID').fill(outside.id)
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  const card = app.locator(`[data-project-id="${outside.id}"]`)
  await expect(card.getByRole('link', { name: 'Made elsewhere' })).toBeVisible()
  await expect(app.getByTestId('announcer')).toContainText('Now watching')

  // The sheet closed once watching worked: it opens again for the second try.
  await chooseFromMenu(app, 'Add an existing project', 'Watch an existing project')
  await app.getByLabel('Project ID').fill(outside.id)
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  await expect(app.getByText('This project is already watched.')).toBeVisible()
  await expectNoViolations(app, 'projects, the watch panel with a problem')
  await app.keyboard.press('Escape')

  // Less prominent than the main action: behind the project's "…" menu.
  await card.getByRole('link', { name: 'Made elsewhere' }).click()
  // Wide (this window), the project opens beside the list: its title a heading under Projects' one H1.
  await expect(
    app.getByRole('region', { name: 'Project' }).getByRole('heading', { name: 'Made elsewhere', level: 2 })
  ).toBeVisible()
  await expect(app.getByRole('menuitem', { name: 'Stop watching' })).toHaveCount(0)
  await chooseFromMenu(app, 'More actions', 'Stop watching')
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await expect(card).toHaveCount(0)
  await expect(app.getByText('No watched projects yet')).toBeVisible()
})

test('watching an unknown ID says so and keeps what was typed', async ({ app }) => {
  await chooseFromMenu(app, 'Add an existing project', 'Watch an existing project')
  await app.getByLabel('Project ID').fill('no-such-project')
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  await expect(app.getByRole('alert')).toContainText('Not found')
  await expect(app.getByLabel('Project ID')).toHaveValue('no-such-project')
})

test('a row is red only for failures not yet seen; the lifetime counts are on the project', async ({ app, host }) => {
  const control = host.service.control
  const project = control.createProject({ name: 'Flaky' })
  const quiet = control.createProject({ name: 'Calm' })
  const breaking = control.addTask(project.id, { name: 'Will break', status: 'in_progress', script: 'run-forever' })
  control.addTask(project.id, { name: 'Keeps going', status: 'in_progress', script: 'run-forever' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await invoke(app, 'project:watch', { projectId: quiet.id })
  await invoke(app, 'monitor:poll-now')
  control.setTaskStatus(breaking.id, 'failed')
  await invoke(app, 'monitor:poll-now')

  const row = app.locator(`[data-project-id="${project.id}"]`)
  const red = row.getByTestId('unseen-failed')
  await expect(red).toContainText('1')
  // The row's leading icon shows the worst state and names them all.
  await expect(row.getByRole('img', { name: '1 new failure' })).toBeVisible()
  await expect(row.getByRole('img', { name: '1 running' })).toBeVisible()
  expect(await colorOf(red)).toBe(await cssColor(app, '--danger'))
  await expect(app.locator(`[data-project-id="${quiet.id}"]`).getByTestId('unseen-failed')).toHaveCount(0)
  // Lifetime counts are not in the list.
  await expect(row).not.toContainText('tasks')

  // In the project's task list too, the failure not yet seen is the red one.
  const failedIcon = app.locator(`[data-task-id="${breaking.id}"]`).getByRole('img', { name: 'Failed' })
  await row.getByRole('link', { name: 'Flaky' }).click()
  await expect.poll(() => colorOf(failedIcon)).toBe(await cssColor(app, '--danger'))

  // Seen: the red goes, the failure stays counted on the project's own line.
  await invoke(app, 'attention:acknowledge', {})
  await expect.poll(() => colorOf(failedIcon)).toBe(await cssColor(app, '--muted'))
  await expect(app.getByTestId('project-meta')).toContainText('2 tasks · 1 running · 1 failed')
  await openHash(app, '#/projects')
  await expect(row).toBeVisible()
  await expect(red).toHaveCount(0)
})

test('Project’s first row starts in the top third at 420 × 640', async ({ app, host }) => {
  await app.setViewportSize(DEFAULT_WINDOW)
  const control = host.service.control
  // Everything the top of the screen can hold: a description, running and failed tasks, costs.
  const project = control.createProject({
    name: 'A project with a long name that does not fit on one line of the window',
    description: 'A description of two lines or more, which used to sit above the actions and the tasks.'
  })
  control.addTask(project.id, { name: 'Broke', status: 'failed' })
  control.addTask(project.id, { name: 'Typing', status: 'in_progress', script: 'run-forever' })
  control.addTask(project.id, { name: 'Shipped', status: 'completed' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await invoke(app, 'monitor:poll-now')
  await openHash(app, `#/projects/${project.id}`)
  const first = app.locator('[data-task-id]').first()
  await expect(first).toBeVisible()
  await expect(app.getByTestId('project-meta')).toContainText('1 running · 1 failed')
  const box = (await first.boundingBox())!
  expect(box.y).toBeLessThan(DEFAULT_WINDOW.height / 3)
})

test('tasks: chips for all, running and failed, and a search that opens from its button', async ({ app, host }) => {
  const control = host.service.control
  const project = control.createProject({ name: 'Many tasks' })
  control.addTask(project.id, { name: 'Broke the build', status: 'failed' })
  control.addTask(project.id, { name: 'Still typing', status: 'in_progress', script: 'run-forever' })
  control.addTask(project.id, { name: 'Shipped the footer', status: 'completed' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  const rows = app.locator('[data-task-id]')
  await expect(rows).toHaveCount(3)
  const chips = app.getByRole('group', { name: 'Show tasks' })
  await expect(chips.getByRole('button')).toHaveText(['All', 'Running 1', 'Failed 1'])

  await chips.getByRole('button', { name: 'Failed 1' }).click()
  await expect(chips.getByRole('button', { name: 'Failed 1' })).toHaveAttribute('aria-pressed', 'true')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('Broke the build')
  await expect(rows.first().getByRole('img', { name: 'Failed' })).toBeVisible()
  await expect(app.getByText('1 of 3 tasks')).toBeVisible()
  await chips.getByRole('button', { name: 'Running 1' }).click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('Still typing')
  await chips.getByRole('button', { name: 'All' }).click()
  await expect(rows).toHaveCount(3)

  // The search is a button until it is wanted; Escape empties and folds it.
  await expect(app.getByRole('searchbox', { name: 'Search tasks' })).toHaveCount(0)
  await app.getByRole('button', { name: 'Search tasks' }).click()
  const search = app.getByRole('searchbox', { name: 'Search tasks' })
  await expect(search).toBeFocused()
  await app.keyboard.type('footer')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('Shipped the footer')
  await app.keyboard.press('Escape')
  await expect(search).toHaveCount(0)
  await expect(app.getByRole('button', { name: 'Search tasks' })).toBeFocused()
  await expect(rows).toHaveCount(3)
  await expectNoViolations(app, 'project with its task chips')
})

test('edit the five updatable fields', async ({ app, host }) => {
  const project = host.service.control.createProject({ name: 'Before', user_email: 'a@example.com' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  await expect(app.getByRole('heading', { name: 'Before', level: 1 })).toBeVisible()

  await chooseFromMenu(app, 'More actions', 'Edit')
  const form = app.getByRole('dialog', { name: 'Edit the project' })
  await form.getByLabel('User e-mail').fill('not-an-email')
  await form.getByRole('button', { name: 'Save changes' }).click()
  await expect(form.getByText('Enter an e-mail address like name@example.com.')).toBeVisible()

  await form.getByLabel('Name').fill('After')
  await form.getByLabel('Description').fill('Now with a description')
  await form.getByLabel('User e-mail').fill('b@example.com')
  await form.getByLabel('Return URL').fill('https://client.example.com/after')
  await form.getByLabel('Reference ID').fill('REF-2')
  await form.getByRole('button', { name: 'Save changes' }).click()

  await expect(app.getByRole('heading', { name: 'After', level: 1 })).toBeVisible()
  await expect(app.getByText('Now with a description')).toBeVisible()
  expect(await invoke(app, 'project:get', { projectId: project.id })).toMatchObject({
    name: 'After',
    description: 'Now with a description',
    user_email: 'b@example.com',
    return_url: 'https://client.example.com/after',
    ref_id: 'REF-2'
  })
})

test('the bar has one icon action, New task, and "…"; the agent interface opens through the shell from it, and the id copies', async ({
  app,
  host,
  request
}) => {
  const project = host.service.control.createProject({ name: 'Prebuilt' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  const actions = app.getByTestId('project-actions')
  await expect(actions.getByRole('button')).toHaveCount(2)
  await expect(actions.getByRole('button', { name: 'New task' })).toBeVisible()
  await expect(actions.getByRole('button', { name: 'More actions' })).toBeVisible()
  await chooseFromMenu(app, 'More actions', 'Open the agent interface')
  await expect.poll(() => host.records.opened).toEqual([project.prebuilt_url])
  await chooseFromMenu(app, 'More actions', 'Copy the project ID')
  await expect
    .poll(async () => (await (await request.get(`${host.url}__host/control/clipboard`)).json()) as string[])
    .toEqual([project.id])
})

test('the return URL opens through the shell; one that is not http(s) is only shown', async ({ app, host }) => {
  const url = 'https://client.example.com/projects/back?from=agent'
  const project = host.service.control.createProject({ name: 'Comes back', return_url: url })
  await invoke(app, 'project:watch', { projectId: project.id })
  // At the window's size the details are a sheet, opened from "…".
  await app.setViewportSize(DEFAULT_WINDOW)
  await openHash(app, `#/projects/${project.id}`)
  await expect(app.getByRole('button', { name: url })).toBeHidden()
  await chooseFromMenu(app, 'More actions', 'Details')
  await app.getByRole('dialog', { name: 'Details' }).getByRole('button', { name: url }).click()
  await expect.poll(() => host.records.opened).toEqual([url])
  await expect(app.getByTestId('announcer')).toContainText('Opened the return URL')

  const odd = host.service.control.createProject({ name: 'Odd return', return_url: 'ftp://files.example.com/drop' })
  await invoke(app, 'project:watch', { projectId: odd.id })
  await openHash(app, `#/projects/${odd.id}`)
  await expect(app.getByRole('heading', { name: 'Odd return', level: 1 })).toBeVisible()
  await chooseFromMenu(app, 'More actions', 'Details')
  await expect(app.locator('dl.details')).toContainText('ftp://files.example.com/drop')
  await expect(app.getByTestId('return-url-note')).toContainText('not an http or https address')
  await expect(app.getByRole('button', { name: 'ftp://files.example.com/drop' })).toHaveCount(0)
  expect(host.records.opened).toEqual([url])
  await app.keyboard.press('Escape')

  // Wide, the details sit beside the tasks, level with their top, and "…" has no Details.
  await app.setViewportSize(WIDE_WINDOW)
  const side = app.getByRole('complementary', { name: 'Details' })
  await expect(side).toContainText('ftp://files.example.com/drop')
  const tasks = (await app.getByRole('region', { name: 'Tasks' }).boundingBox())!
  const beside = (await side.boundingBox())!
  expect(beside.x).toBeGreaterThanOrEqual(tasks.x + tasks.width)
  expect(beside.y).toBeLessThan(tasks.y + tasks.height)
  await app.getByRole('button', { name: 'More actions', exact: true }).click()
  await expect(app.getByRole('menuitem', { name: 'Edit' })).toBeVisible()
  await expect(app.getByRole('menuitem', { name: 'Details' })).toHaveCount(0)
})

test('publish: the sub-domain is checked as it is typed, one Publish button, and success gives the address once with Copy', async ({
  app,
  host,
  request
}) => {
  const project = host.service.control.createProject({ name: 'To publish' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  await chooseFromMenu(app, 'More actions', 'Publish')
  await expect(app.getByText(`.${host.service.publishingDomain}`, { exact: true })).toBeVisible()
  // A sheet, with one Publish button: its own (the menu that opened it has closed).
  await expect(app.getByRole('dialog', { name: 'Publish' })).toBeVisible()
  const publish = app.getByRole('button', { name: 'Publish', exact: true })
  await expect(publish).toHaveCount(1)

  const field = app.getByLabel('Sub-domain')
  await expect(field).toBeFocused()
  await field.fill('My_Shop')
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(app.locator('#publish-problems')).toContainText('lowercase')
  await publish.click()
  await expect(app.locator('[data-publish-status]')).toHaveCount(0)

  await field.fill('my-shop')
  await expect(field).not.toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByText(`my-shop.${host.service.publishingDomain}`)).toBeVisible()
  await publish.click()
  const result = app.locator('[data-publish-status="success"]')
  await expect(result).toContainText('Published')
  // Done: the sheet closed, and the address is the screen's row.
  await expect(app.getByRole('dialog')).toHaveCount(0)
  // The site's address, once on the screen: the service's message only repeated it.
  const site = `https://my-shop.${host.service.publishingDomain}`
  await expect(app.getByTestId('published-url')).toContainText(site)
  expect((await app.locator('main').innerText()).split(`my-shop.${host.service.publishingDomain}`)).toHaveLength(2)
  await expect(result.locator('li')).toHaveCount(0)
  // Copy (main's clipboard: the window has none), and the address itself opens it (the shell).
  await app.getByRole('button', { name: 'Copy the address' }).click()
  await expect
    .poll(async () => (await (await request.get(`${host.url}__host/control/clipboard`)).json()) as string[])
    .toEqual([site])
  await app.getByRole('button', { name: 'Open the site' }).click()
  await expect.poll(() => host.records.opened).toEqual([site])
  await expectNoViolations(app, 'publish succeeded')

  // Published, the action becomes Update, on the same sub-domain.
  await chooseFromMenu(app, 'More actions', 'Update the site')
  const update = app.getByRole('dialog', { name: 'Update the site' })
  await expect(update.getByLabel('Sub-domain')).toHaveValue('my-shop')
  await expect(update.getByRole('button', { name: 'Update', exact: true })).toBeVisible()
  await expect(update.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0)
})

test('publish: a sub-domain another project holds fails with the service’s message', async ({ app, host }) => {
  const first = host.service.control.createProject({ name: 'First' })
  const second = host.service.control.createProject({ name: 'Second' })
  await invoke(app, 'project:watch', { projectId: second.id })
  await invoke(app, 'project:publish', { projectId: first.id, hostname: `taken.${host.service.publishingDomain}` })
  await openHash(app, `#/projects/${second.id}`)
  await chooseFromMenu(app, 'More actions', 'Publish')
  const field = app.getByLabel('Sub-domain')
  await field.fill('taken')
  await app.getByRole('button', { name: 'Publish', exact: true }).click()
  const result = app.locator('[data-publish-status="failed"]')
  await expect(result).toHaveAttribute('role', 'alert')
  await expect(result).toContainText('Publishing failed')
  await expect(result.locator('li')).toContainText(['already taken'])
  await expectNoViolations(app, 'publish failed')
})
