// The window's handlers for what lies outside the interface (a product's projects, starting a task)
// and for learning the publishing domain, against the reference service with and without them.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { createServiceClient } from '../client'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'

const API_KEY = 'test-key-ext-5c2e91'
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

async function rig(
  options: { extensions?: boolean; publishingDomain?: string } = {}
): Promise<{ service: ReferenceService; controller: AppController; connectionId: string }> {
  const service = await startReferenceService({
    apiKey: API_KEY,
    port: 0,
    seed: 5,
    manualClock: true,
    extensions: options.extensions ?? true
  })
  const dir = await mkdtemp(join(tmpdir(), 'agent-tray-ext-'))
  const controller = createAppController({
    settings: await openSettings({ dir }),
    secrets: createSessionSecretStore('Kept in memory for this test.'),
    createClient: (connection, apiKey, o) =>
      createServiceClient({ ...o, baseUrl: connection.baseUrl, apiKey, retry: { retries: 0 } }),
    openExternal: async () => {},
    notify: () => {},
    clock: new ManualClock(Date.parse(MANUAL_START_TIME)),
    random: () => 0.5,
    tz: 0
  })
  await controller.start()
  cleanups.push(async () => {
    await controller.stop()
    await service.close()
    await rm(dir, { recursive: true, force: true })
  })
  const view = await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: options.publishingDomain ?? '' },
    apiKey: API_KEY
  })
  return { service, controller, connectionId: view.id }
}

describe("a software product's projects", () => {
  it('lists them in the order asked, from the connection named or the active one', async () => {
    const { service, controller, connectionId } = await rig()
    const older = service.control.createProject({ name: 'Older', software_product_id: 'sp-42' })
    service.control.advance(60_000)
    const newer = service.control.createProject({ name: 'Newer', software_product_id: 'sp-42' })
    service.control.createProject({ name: 'Elsewhere', software_product_id: 'sp-7' })
    const desc = await controller.handlers['product:projects']({ connectionId, productId: 'sp-42', order: 'desc' })
    expect(desc.map((p) => p.id)).toEqual([newer.id, older.id])
    const asc = await controller.handlers['product:projects']({ productId: 'sp-42', order: 'asc' })
    expect(asc.map((p) => p.name)).toEqual(['Older', 'Newer'])
  })

  it('a server without the listing: the error says so plainly, as unsupported', async () => {
    const { controller } = await rig({ extensions: false })
    const result = await dispatch(controller.handlers, 'product:projects', { productId: 'sp-42', order: 'desc' })
    expect(result).toMatchObject({ ok: false, error: { kind: 'unsupported' } })
  })
})

describe('starting a task', () => {
  it('creates it on a watched project, whose monitor then sees it at once', async () => {
    const { service, controller } = await rig()
    const project = service.control.createProject({ name: 'Shop' })
    await controller.handlers['project:watch']({ projectId: project.id })
    const task = await controller.handlers['task:create']({
      projectId: project.id,
      name: 'Add a cart',
      textRequirement: 'A cart page'
    })
    expect(task).toMatchObject({ project_id: project.id, name: 'Add a cart', text_requirement: 'A cart page' })
    await expect
      .poll(async () => (await controller.handlers['project:tasks']({ projectId: project.id })).map((t) => t.id))
      .toContain(task.id)
  })

  it('a server without it: unsupported, and nothing is created', async () => {
    const { service, controller } = await rig({ extensions: false })
    const project = service.control.createProject({ name: 'Shop' })
    const result = await dispatch(controller.handlers, 'task:create', {
      projectId: project.id,
      name: 'X',
      textRequirement: 'Y'
    })
    expect(result).toMatchObject({ ok: false, error: { kind: 'unsupported' } })
    expect(service.control.listProjects().find((p) => p.id === project.id)).toBeDefined()
  })
})

describe('the publishing domain', () => {
  it('is learnt from the first successful publish when none was given, and then checks later names', async () => {
    const { service, controller, connectionId } = await rig()
    const project = service.control.createProject({ name: 'Shop' })
    const hostname = `shop.${service.publishingDomain}`
    expect(await controller.handlers['project:publish']({ projectId: project.id, hostname })).toMatchObject({
      status: 'success'
    })
    expect(controller.getState().connections.find((c) => c.id === connectionId)?.publishingDomain).toBe(
      service.publishingDomain
    )
    const refused = await dispatch(controller.handlers, 'project:publish', {
      projectId: project.id,
      hostname: 'shop.example.org'
    })
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_argument' } })
  })

  it('a refused publish teaches nothing, and a given domain is never replaced', async () => {
    const { service, controller, connectionId } = await rig()
    const project = service.control.createProject({ name: 'Shop' })
    const failed = await dispatch(controller.handlers, 'project:publish', {
      projectId: project.id,
      hostname: 'shop.not-the-domain.test'
    })
    expect(failed).not.toMatchObject({ ok: true, value: { status: 'success' } })
    expect(controller.getState().connections.find((c) => c.id === connectionId)?.publishingDomain).toBe('')

    const given = await rig({ publishingDomain: 'apps.example.com' })
    const p = given.service.control.createProject({ name: 'Shop' })
    await dispatch(given.controller.handlers, 'project:publish', {
      projectId: p.id,
      hostname: `shop.${given.service.publishingDomain}`
    })
    expect(given.controller.getState().connections[0]?.publishingDomain).toBe('apps.example.com')
  })
})
