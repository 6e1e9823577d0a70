// The test host itself: the transport must be as strict as Electron's would be, or specs prove
// less than they seem to.
import { INVOKE_CHANNELS } from '../../src/shared/ipc'
import { expect, recordEvents, test, type HostWindow } from '../support/fixtures'

test('serves the page with the bridge before the first script', async ({ host, request }) => {
  const html = await (await request.get(host.url)).text()
  const bridgeAt = html.indexOf('<script src="/__bridge.js"></script>')
  expect(bridgeAt).toBeGreaterThan(-1)
  const firstOther = html.search(/<script(?! src="\/__bridge\.js")[\s>]/)
  if (firstOther !== -1) expect(bridgeAt).toBeLessThan(firstOther)
})

test('window.agentTray has one function per invoke channel, and on()', async ({ app }) => {
  const keys = await app.evaluate(() => Object.keys((globalThis as unknown as HostWindow).agentTray))
  expect(keys.sort()).toEqual([...INVOKE_CHANNELS, 'on'].sort())
  const frozen = await app.evaluate(() => Object.isFrozen((globalThis as unknown as HostWindow).agentTray))
  expect(frozen).toBe(true)
})

test('invoke refuses unknown channels, bad JSON, other methods and huge bodies', async ({ host, request }) => {
  const unknown = await request.post(`${host.url}__ipc/invoke/project:delete`, { data: {} })
  expect(await unknown.json()).toMatchObject({ ok: false, error: { kind: 'invalid_argument', message: expect.stringContaining('Unknown channel') } })
  const notJson = await request.post(`${host.url}__ipc/invoke/project:get`, { data: Buffer.from('{nope'), headers: { 'content-type': 'application/json' } })
  expect(await notJson.json()).toMatchObject({ ok: false, error: { kind: 'invalid_argument', message: 'The request is not JSON.' } })
  expect((await request.get(`${host.url}__ipc/invoke/app:get-state`)).status()).toBe(405)
  const huge = await request.post(`${host.url}__ipc/invoke/project:create`, { data: { project: { description: 'x'.repeat(1_100_000) }, watch: false } })
  expect(huge.status()).toBe(413)
})

test('serves nothing outside the renderer directory', async ({ host, request }) => {
  for (const path of ['../package.json', '%2e%2e/package.json', '..%2fpackage.json', 'assets/..%2f..%2fpackage.json']) {
    const res = await request.get(`${host.url}${path}`)
    expect(res.status(), path).toBe(404)
  }
})

test('events reach subscribers until they unsubscribe', async ({ app }) => {
  const counts = await app.evaluate(async () => {
    const bridge = (globalThis as unknown as HostWindow).agentTray
    await (globalThis as unknown as HostWindow).__agentTrayHost.ready
    let received = 0
    const off = bridge.on('app:state', () => received++)
    await bridge['settings:update']({ theme: 'dark' })
    const deadline = Date.now() + 5000
    while (received === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const before = received
    off()
    await bridge['settings:update']({ theme: 'light' })
    await new Promise((r) => setTimeout(r, 400))
    return { before, after: received }
  })
  expect(counts.before).toBeGreaterThan(0)
  expect(counts.after).toBe(counts.before)
})

test('control routes inject faults, and the app reports them as service errors', async ({ app, host, request }) => {
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['demo:start']())
  const projectId = host.controller.getState().projects[0]!.watched.projectId
  const set = await request.post(`${host.url}__host/control/faults`, { data: { rules: [{ kind: 'error', status: 500, pathPrefix: '/projects/' }] } })
  expect(set.ok()).toBe(true)
  const failed = await app.evaluate((id) => (globalThis as unknown as HostWindow).agentTray['project:get']({ projectId: id }), projectId)
  expect(failed).toMatchObject({ ok: false, error: { kind: 'server', status: 500 } })
  await request.delete(`${host.url}__host/control/faults`)
  const fine = await app.evaluate((id) => (globalThis as unknown as HostWindow).agentTray['project:get']({ projectId: id }), projectId)
  expect(fine).toMatchObject({ ok: true, value: { id: projectId } })
})

test('forcing a task status shows up as a monitor event in the page', async ({ app, host, request }) => {
  const events = await recordEvents(app)
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['demo:start']())
  const [, idleProjectId] = host.controller.getState().projects.map((p) => p.watched.projectId)
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['monitor:poll-now']())
  const added = await request.post(`${host.url}__host/control/add-task`, {
    data: { projectId: idleProjectId, name: 'Forced task', status: 'in_progress', script: 'run-forever' }
  })
  const task = (await added.json()) as { id: string }
  await request.post(`${host.url}__host/control/task-status`, { data: { taskId: task.id, status: 'cancelled' } })
  await expect
    .poll(async () => (await events.of('monitor:event')).some((e) => 'taskId' in e && e.taskId === task.id), { timeout: 15_000 })
    .toBe(true)
})

test('opens only http(s) links', async ({ app, host }) => {
  const results = await app.evaluate(async () => {
    const bridge = (globalThis as unknown as HostWindow).agentTray
    return [
      await bridge['shell:open-external']({ url: 'https://example.com/x' }),
      await bridge['shell:open-external']({ url: 'javascript:alert(1)' }),
      await bridge['shell:open-external']({ url: 'file:///etc/passwd' })
    ]
  })
  expect(results.map((r) => r.ok)).toEqual([true, false, false])
  expect(host.records.opened).toEqual(['https://example.com/x'])
})
