import { describe, expect, it } from 'vitest'
import { createQuitHandler, SHUTDOWN_TIMEOUT_MS } from './quit'

function timers() {
  const pending = new Map<number, () => void>()
  let next = 1
  return {
    pending,
    setTimeout: (fn: () => void) => (pending.set(next, fn), next++),
    clearTimeout: (h: unknown) => void pending.delete(h as number),
    fireAll: () => [...pending.values()].forEach((fn) => fn())
  }
}

function quitEvent() {
  const e = { prevented: 0, preventDefault: () => void e.prevented++ }
  return e
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe('createQuitHandler', () => {
  it('holds the first quit, runs the steps in order, then quits and lets that quit through', async () => {
    const order: string[] = []
    let quits = 0
    const t = timers()
    const onQuit = createQuitHandler({
      steps: [
        { name: 'bounds', run: async () => void order.push('bounds') },
        { name: 'stop', run: () => void order.push('stop') }
      ],
      quit: () => void quits++,
      timers: t,
      log: () => {}
    })
    const first = quitEvent()
    onQuit(first)
    expect(first.prevented).toBe(1)
    await settle()
    expect(order).toEqual(['bounds', 'stop'])
    expect(quits).toBe(1)
    expect(t.pending.size).toBe(0)
    const second = quitEvent()
    onQuit(second)
    expect(second.prevented).toBe(0)
  })

  it('holds every quit asked while shutting down, and quits only once the steps are done', async () => {
    let finishStop: () => void = () => {}
    let quits = 0
    const onQuit = createQuitHandler({
      steps: [{ name: 'stop', run: () => new Promise<void>((r) => (finishStop = r)) }],
      quit: () => void quits++,
      timers: timers(),
      log: () => {}
    })
    onQuit(quitEvent())
    const again = quitEvent()
    onQuit(again)
    expect(again.prevented).toBe(1)
    await settle()
    expect(quits).toBe(0)
    finishStop()
    await settle()
    expect(quits).toBe(1)
  })

  it('logs a failing step and still runs the rest', async () => {
    const order: string[] = []
    const logs: string[] = []
    let quits = 0
    const onQuit = createQuitHandler({
      steps: [
        { name: 'bounds', run: () => Promise.reject(new Error('disk full')) },
        { name: 'stop', run: () => void order.push('stop') }
      ],
      quit: () => void quits++,
      timers: timers(),
      log: (m) => logs.push(m)
    })
    onQuit(quitEvent())
    await settle()
    expect(order).toEqual(['stop'])
    expect(logs).toEqual(['shutdown: bounds: disk full'])
    expect(quits).toBe(1)
  })

  it('quits anyway when a step hangs past the time limit', async () => {
    const t = timers()
    let quits = 0
    const onQuit = createQuitHandler({
      steps: [{ name: 'hang', run: () => new Promise<void>(() => {}) }],
      quit: () => void quits++,
      timers: t,
      timeoutMs: SHUTDOWN_TIMEOUT_MS,
      log: () => {}
    })
    onQuit(quitEvent())
    await settle()
    expect(quits).toBe(0)
    t.fireAll()
    await settle()
    expect(quits).toBe(1)
  })
})
