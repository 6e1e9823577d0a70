// The test host itself: the transport must be as strict as Electron's would be, or specs prove
// less than they seem to.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type IpcMainLike, registerIpcHandlers } from '../../src/core/app/ipc'
import { INVOKE_CHANNELS, type IpcResult } from '../../src/shared/ipc'
import { expect, type HostWindow, recordEvents, test } from '../support/fixtures'

/** What the Electron main process answers a window that is not ours (core/app/ipc.ts, as main registers it). */
async function mainProcessRefusal(): Promise<unknown> {
  let listener: Parameters<IpcMainLike['handle']>[1] | undefined
  registerIpcHandlers({
    ipcMain: {
      handle: (channel, l) => void (channel === 'settings:update' && (listener = l)),
      removeHandler: () => undefined
    },
    dispatch: async (): Promise<IpcResult<unknown>> => ({ ok: true, value: undefined }),
    isTrusted: () => false,
    log: () => undefined
  })
  if (!listener) throw new Error('settings:update was not registered')
  return listener({ senderFrame: { url: 'https://evil.example/', processId: 9, routingId: 9 } }, { theme: 'dark' })
}

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
  // As Electron: nobody handles that channel (the preload could not even name it).
  const unknown = await request.post(`${host.url}__ipc/invoke/project:delete`, { data: {} })
  expect(unknown.status()).toBe(404)
  expect(await unknown.json()).toEqual({ error: "No handler registered for 'project:delete'" })
  const notJson = await request.post(`${host.url}__ipc/invoke/project:get`, {
    data: Buffer.from('{nope'),
    headers: { 'content-type': 'application/json' }
  })
  expect(await notJson.json()).toMatchObject({
    ok: false,
    error: { kind: 'invalid_argument', message: 'The request is not JSON.' }
  })
  expect((await request.get(`${host.url}__ipc/invoke/app:get-state`)).status()).toBe(405)
  const huge = await request.post(`${host.url}__ipc/invoke/project:create`, {
    data: { project: { description: 'x'.repeat(1_100_000) }, watch: false }
  })
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
    let first = (): void => {}
    const firstCame = new Promise<void>((resolve) => (first = resolve))
    const off = bridge.on('app:state', () => (received++, first()))
    await bridge['settings:update']({ theme: 'dark' })
    await firstCame
    const before = received
    off()
    // The next known event: a listener still subscribed hears the next state; by then the one that
    // unsubscribed would have heard it too.
    const nextCame = new Promise<void>((resolve) => {
      const offNext = bridge.on('app:state', () => (offNext(), resolve()))
    })
    await bridge['settings:update']({ theme: 'light' })
    await nextCame
    return { before, after: received }
  })
  expect(counts.before).toBeGreaterThan(0)
  expect(counts.after).toBe(counts.before)
})

test('control routes inject faults, and the app reports them as service errors', async ({ app, host, request }) => {
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['demo:start']())
  const projectId = host.controller.getState().projects[0]!.watched.projectId
  const set = await request.post(`${host.url}__host/control/faults`, {
    data: { rules: [{ kind: 'error', status: 500, pathPrefix: '/projects/' }] }
  })
  expect(set.ok()).toBe(true)
  const failed = await app.evaluate(
    (id) => (globalThis as unknown as HostWindow).agentTray['project:get']({ projectId: id }),
    projectId
  )
  expect(failed).toMatchObject({ ok: false, error: { kind: 'server', status: 500 } })
  await request.delete(`${host.url}__host/control/faults`)
  const fine = await app.evaluate(
    (id) => (globalThis as unknown as HostWindow).agentTray['project:get']({ projectId: id }),
    projectId
  )
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
  // The poll that sees it is asked for, not waited for on the idle interval.
  await app.evaluate(() => (globalThis as unknown as HostWindow).agentTray['monitor:poll-now']())
  await expect
    .poll(async () => (await events.of('monitor:event')).some((e) => 'taskId' in e && e.taskId === task.id))
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

test('invoke from another origin, or without one, gets the main process’s own refusal and changes nothing', async ({
  host,
  request,
  playwright
}) => {
  const refusal = await mainProcessRefusal()
  expect(refusal).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
  const foreign = await request.post(`${host.url}__ipc/invoke/settings:update`, {
    data: { theme: 'dark' },
    headers: { origin: 'http://evil.test' }
  })
  expect(await foreign.json()).toEqual(refusal)
  const bare = await playwright.request.newContext()
  try {
    const none = await bare.post(`${host.url}__ipc/invoke/settings:update`, { data: { theme: 'dark' } })
    expect(await none.json()).toEqual(refusal)
    const control = await bare.post(`${host.url}__host/control/create-project`, { data: { name: 'Planted' } })
    expect(control.status()).toBe(403)
  } finally {
    await bare.dispose()
  }
  expect((await host.controller.handlers['settings:get']()).theme).toBe('system')
  expect(host.service.control.listProjects().some((p) => p.name === 'Planted')).toBe(false)
  expect(host.log.filter((line) => line.includes('refused'))).toEqual([
    'ipc: refused settings:update from http://evil.test',
    'ipc: refused settings:update from an unknown frame',
    'host: refused POST create-project from a request without an Origin'
  ])
  // The host's own origin, as the page sends it, still works.
  const own = await request.post(`${host.url}__ipc/invoke/settings:update`, { data: { theme: 'dark' } })
  expect(await own.json()).toMatchObject({ ok: true, value: { theme: 'dark' } })
})

test('invoke and control bodies must be application/json (415), the kind a foreign page cannot send unasked', async ({
  host,
  request
}) => {
  const text = await request.post(`${host.url}__ipc/invoke/settings:update`, {
    data: JSON.stringify({ theme: 'dark' }),
    headers: { 'content-type': 'text/plain' }
  })
  expect(text.status()).toBe(415)
  const form = await request.post(`${host.url}__host/control/create-project`, { form: { name: 'Planted' } })
  expect(form.status()).toBe(415)
  expect((await host.controller.handlers['settings:get']()).theme).toBe('system')
  expect(host.service.control.listProjects().some((p) => p.name === 'Planted')).toBe(false)
})

test('a page on another loopback origin cannot drive the host', async ({ host, page }) => {
  const evil = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>elsewhere</title>')
  })
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', () => resolve()))
  try {
    const evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`
    await page.goto(`${evilOrigin}/`)
    const outcomes = await page.evaluate(async (hostUrl) => {
      const tries: [string, RequestInit][] = [
        // "Simple" requests: sent without a preflight, their answer unreadable.
        [
          `${hostUrl}__ipc/invoke/settings:update`,
          { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"theme":"dark"}' }
        ],
        [
          `${hostUrl}__host/control/create-project`,
          { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"name":"Planted"}' }
        ],
        [`${hostUrl}__host/control/create-project`, { method: 'POST', mode: 'no-cors' }],
        // JSON needs a preflight, which the host never grants.
        [
          `${hostUrl}__ipc/invoke/settings:update`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"theme":"dark"}' }
        ]
      ]
      const out: string[] = []
      for (const [url, init] of tries) {
        try {
          out.push((await fetch(url, init)).type)
        } catch {
          out.push('refused')
        }
      }
      return out
    }, host.url)
    expect(outcomes).toEqual(['opaque', 'opaque', 'opaque', 'refused'])
    expect((await host.controller.handlers['settings:get']()).theme).toBe('system')
    expect(host.service.control.listProjects().some((p) => p.name === 'Planted')).toBe(false)
    expect(host.service.control.listProjects()).toHaveLength(0)
    expect(host.log).toContain(`host: refused POST create-project from ${evilOrigin}`)
  } finally {
    evil.closeAllConnections()
    await new Promise<void>((resolve) => evil.close(() => resolve()))
  }
})

test("the host runs a fake of each agent service, driven by its control routes, on the reference service's clock", async ({
  host,
  request
}) => {
  const added = await request.post(`${host.url}__host/control/agent-task`, {
    data: { service: 'jules', title: 'Add dark mode', script: 'plan' }
  })
  const { id } = (await added.json()) as { id: string }
  expect((await request.post(`${host.url}__host/control/advance`, { data: { ms: 60_000 } })).status()).toBe(200)
  const tasks = async (kind: string) =>
    (await (await request.get(`${host.url}__host/control/agent-tasks/${kind}`)).json()) as {
      id: string
      state: string
    }[]
  expect(await tasks('jules')).toEqual([expect.objectContaining({ id, state: 'AWAITING_PLAN_APPROVAL' })])
  const github = (await (
    await request.post(`${host.url}__host/control/agent-task`, { data: { service: 'github', script: 'queue' } })
  ).json()) as { id: string }
  await request.post(`${host.url}__host/control/agent-task-state`, {
    data: { service: 'github', taskId: github.id, state: 'waiting_for_user' }
  })
  expect(await tasks('github')).toEqual([expect.objectContaining({ state: 'waiting_for_user' })])
  // Each fake answers its own key over loopback, as an account of that service will ask it.
  const { fake, apiKey } = host.agents.jules
  const listed = await fetch(`${fake.baseUrl}/sessions`, { headers: { 'x-goog-api-key': apiKey } })
  expect(((await listed.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id)).toEqual([id])
  expect((await request.post(`${host.url}__host/control/agent-task`, { data: { service: 'nonesuch' } })).status()).toBe(
    400
  )
})

test.describe('the demo with the agent services', () => {
  test.use({ hostOptions: { demo: true, agentDemo: true } })
  test('configures a Workser account and one per agent service on its fake, their keys in memory', async ({ host }) => {
    const state = host.controller.getState()
    const services = state.connections.map((c) => c.service ?? 'workser').sort()
    expect(services).toEqual(['cursor', 'devin', 'github', 'jules', 'workser'])
    expect(state.connections.every((c) => c.hasKey)).toBe(true)
    // The Jules fake's demo has a plan waiting for approval from the start.
    expect(host.agents.jules.fake.control.tasks().map((t) => t.state)).toContain('AWAITING_PLAN_APPROVAL')
  })
})
