import { connect, expectNoSeriousViolations, invoke, openHash } from './window.helpers'
import { expect, test } from './support/fixtures'

test.beforeEach(async ({ app, host }) => {
  await connect(app, host)
  await openHash(app, '#/projects')
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
})

test('create a project with every field of the create body', async ({ app }) => {
  await app.getByRole('button', { name: 'New project' }).click()
  const form = app.locator('form[aria-labelledby="create-heading"]')
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
  await expect(form.getByRole('textbox', { name: 'Image URL 2', exact: true })).toHaveValue('https://img.example.com/three.png')
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
  expect(project).toMatchObject({ name: 'Bakery site', description: 'Bread and cakes', project_type: 'web', ref_id: 'BAK-1' })
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
  await app.getByLabel('Project ID').fill(outside.id)
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  const card = app.locator(`[data-project-id="${outside.id}"]`)
  await expect(card.getByRole('link', { name: 'Made elsewhere' })).toBeVisible()
  await expect(app.getByTestId('announcer')).toContainText('Now watching')

  await app.getByLabel('Project ID').fill(outside.id)
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  await expect(app.getByText('This project is already watched.')).toBeVisible()

  // Less prominent than the main action: behind the row's details.
  await expect(card.getByRole('button', { name: 'Stop watching Made elsewhere' })).toBeHidden()
  await card.getByText('Details').click()
  await card.getByRole('button', { name: 'Stop watching Made elsewhere' }).click()
  await expect(card).toHaveCount(0)
  await expect(app.getByText('No watched projects yet')).toBeVisible()
})

test('watching an unknown ID says so and keeps what was typed', async ({ app }) => {
  await app.getByLabel('Project ID').fill('no-such-project')
  await app.getByRole('button', { name: 'Watch', exact: true }).click()
  await expect(app.getByRole('alert')).toContainText('Not found')
  await expect(app.getByLabel('Project ID')).toHaveValue('no-such-project')
})

test('edit the five updatable fields', async ({ app, host }) => {
  const project = host.service.control.createProject({ name: 'Before', user_email: 'a@example.com' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  await expect(app.getByRole('heading', { name: 'Before', level: 1 })).toBeVisible()

  await app.getByRole('button', { name: 'Edit' }).click()
  const form = app.locator('form[aria-labelledby="edit-heading"]')
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

test('a project opens its agent interface through the shell', async ({ app, host }) => {
  const project = host.service.control.createProject({ name: 'Prebuilt' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  await app.getByRole('button', { name: 'Open the agent interface' }).click()
  await expect.poll(() => host.records.opened).toEqual([project.prebuilt_url])
})

test('the return URL opens through the shell; one that is not http(s) is only shown', async ({ app, host }) => {
  const url = 'https://client.example.com/projects/back?from=agent'
  const project = host.service.control.createProject({ name: 'Comes back', return_url: url })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  // The details sit below the fold, folded.
  await expect(app.getByRole('button', { name: url })).toBeHidden()
  await app.getByText('Details', { exact: true }).click()
  await app.getByRole('button', { name: url }).click()
  await expect.poll(() => host.records.opened).toEqual([url])
  await expect(app.getByTestId('announcer')).toContainText('Opened the return URL')

  const odd = host.service.control.createProject({ name: 'Odd return', return_url: 'ftp://files.example.com/drop' })
  await invoke(app, 'project:watch', { projectId: odd.id })
  await openHash(app, `#/projects/${odd.id}`)
  await expect(app.getByRole('heading', { name: 'Odd return', level: 1 })).toBeVisible()
  await expect(app.locator('dl.details')).toContainText('ftp://files.example.com/drop')
  await expect(app.getByTestId('return-url-note')).toContainText('not an http or https address')
  await expect(app.getByRole('button', { name: 'ftp://files.example.com/drop' })).toHaveCount(0)
  expect(host.records.opened).toEqual([url])
})

test('publish: the sub-domain is checked as it is typed, success lists the messages and gives the address with Open and Copy', async ({ app, host, request }) => {
  const project = host.service.control.createProject({ name: 'To publish' })
  await invoke(app, 'project:watch', { projectId: project.id })
  await openHash(app, `#/projects/${project.id}`)
  await app.getByRole('button', { name: 'Publish' }).click()
  await expect(app.getByText(`.${host.service.publishingDomain}`, { exact: true })).toBeVisible()

  const field = app.getByLabel('Sub-domain')
  await field.fill('My_Shop')
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(app.locator('#publish-problems')).toContainText('lowercase')
  await app.getByRole('button', { name: 'Publish', exact: true }).last().click()
  await expect(app.locator('[data-publish-status]')).toHaveCount(0)

  await field.fill('my-shop')
  await expect(field).not.toHaveAttribute('aria-invalid', 'true')
  await expect(app.getByText(`my-shop.${host.service.publishingDomain}`)).toBeVisible()
  await app.locator('form').filter({ has: field }).getByRole('button', { name: 'Publish' }).click()
  const result = app.locator('[data-publish-status="success"]')
  await expect(result).toContainText('Published')
  await expect(result.locator('li')).toContainText([`https://my-shop.${host.service.publishingDomain}`])
  // The site's address, with Open (the shell) and Copy (main's clipboard: the window has none).
  const site = `https://my-shop.${host.service.publishingDomain}`
  await expect(app.getByTestId('published-url')).toContainText(site)
  await app.getByRole('button', { name: `Copy ${site}` }).click()
  await expect.poll(async () => (await (await request.get(`${host.url}__host/control/clipboard`)).json()) as string[]).toEqual([site])
  await app.getByRole('button', { name: `Open ${site}` }).click()
  await expect.poll(() => host.records.opened).toEqual([site])
  await expectNoSeriousViolations(app, 'publish succeeded')
})

test('publish: a sub-domain another project holds fails with the service’s message', async ({ app, host }) => {
  const first = host.service.control.createProject({ name: 'First' })
  const second = host.service.control.createProject({ name: 'Second' })
  await invoke(app, 'project:watch', { projectId: second.id })
  await invoke(app, 'project:publish', { projectId: first.id, hostname: `taken.${host.service.publishingDomain}` })
  await openHash(app, `#/projects/${second.id}`)
  await app.getByRole('button', { name: 'Publish' }).click()
  const field = app.getByLabel('Sub-domain')
  await field.fill('taken')
  await app.locator('form').filter({ has: field }).getByRole('button', { name: 'Publish' }).click()
  const result = app.locator('[data-publish-status="failed"]')
  await expect(result).toHaveAttribute('role', 'alert')
  await expect(result).toContainText('Publishing failed')
  await expect(result.locator('li')).toContainText(['already taken'])
  await expectNoSeriousViolations(app, 'publish failed')
})
