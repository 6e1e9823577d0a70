// Forwarding's stop: a send under way is given its moment to be answered and recorded, so the next
// run does not send it again; one that outlasts the grace stays queued and is sent again, with the
// same Idempotency-Key. Against a loopback webhook whose answer the test holds and releases.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { createForwarding } from './forwarding'
import { memoryOutboxStorage } from './outbox-file'
import { forwardEvent, NAMES, taskEnded, WEBHOOK_TARGET } from './test-events'

let server: http.Server
let url: string
const keys: string[] = []
let held: Array<() => void> = []
let arrived: () => void = () => {}

beforeEach(async () => {
  keys.length = 0
  held = []
  server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      keys.push(String(req.headers['idempotency-key']))
      held.push(() => res.end('ok'))
      arrived()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})

afterEach(async () => {
  for (const release of held) release()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeAllConnections()
})

function open(storage: ReturnType<typeof memoryOutboxStorage>) {
  return createForwarding({
    storage,
    clock: new ManualClock(Date.UTC(2026, 10, 27, 9)),
    secrets: { get: async () => JSON.stringify({ url }) },
    settings: () => ({ forwarding: { targets: [WEBHOOK_TARGET] }, watched: {}, connectionNotifications: {} }),
    names: NAMES,
    moment: () => ({ away: true, quiet: false }),
    onGiveUp: () => {}
  })
}

const nextArrival = () => new Promise<void>((resolve) => (arrived = resolve))

it('a send answered within the grace is recorded at stop: the next run sends nothing again', async () => {
  const storage = memoryOutboxStorage()
  const first = open(storage)
  const came = nextArrival()
  first.forward('c1', [taskEnded('t1')])
  await came
  const closing = first.close(10_000)
  held.shift()!()
  await closing
  expect(storage.doc.pending).toEqual([])
  const second = open(storage)
  await second.idle()
  second.dispose()
  expect(keys).toHaveLength(1)
})

it('a send not answered within the grace stays queued and goes again at the next run, under the same key', async () => {
  const storage = memoryOutboxStorage()
  const first = open(storage)
  const came = nextArrival()
  first.forward('c1', [taskEnded('t1')])
  await came
  await first.close(50)
  expect(storage.doc.pending).toHaveLength(1)
  const again = nextArrival()
  const second = open(storage)
  await again
  held.at(-1)!()
  await second.idle()
  second.dispose()
  expect(keys).toHaveLength(2)
  expect(keys[1]).toBe(keys[0])
  expect(storage.doc.pending).toEqual([])
})

it('what belongs to targets no longer in the settings goes, at start and when the targets change', () => {
  const storage = memoryOutboxStorage({
    version: 1,
    pending: [
      { targetId: 'gone', event: forwardEvent('t1'), enqueuedAt: 0, attempts: 3, nextAt: Date.UTC(2027, 0, 1) }
    ],
    delivered: { gone: ['x'], f1: ['y'] },
    status: { gone: { lastError: 'HTTP 500' }, f1: { lastDeliveredAt: 1 } }
  })
  const settings = { forwarding: { targets: [WEBHOOK_TARGET] }, watched: {}, connectionNotifications: {} }
  const forwarding = createForwarding({
    storage,
    clock: new ManualClock(Date.UTC(2026, 10, 27, 9)),
    secrets: { get: async () => JSON.stringify({ url }) },
    settings: () => settings,
    names: NAMES,
    moment: () => ({ away: true, quiet: false }),
    onGiveUp: () => {}
  })
  expect(storage.doc).toMatchObject({ pending: [], delivered: { f1: ['y'] }, status: { f1: { lastDeliveredAt: 1 } } })
  expect(Object.keys(storage.doc.delivered)).toEqual(['f1'])
  settings.forwarding.targets = []
  forwarding.forward('c1', [])
  forwarding.dispose()
  expect(storage.doc).toEqual({ version: 1, pending: [], delivered: {}, status: {} })
})
