import { describe, expect, it } from 'vitest'
import type { WindowState } from '../shared/settings'
import { BOUNDS_SAVE_DELAY_MS, createBoundsSaver, sameWindowState } from './bounds-saver'

function manualTimers() {
  let now = 0
  let next = 1
  const pending = new Map<number, { at: number; fn: () => void }>()
  return {
    pending,
    setTimeout: (fn: () => void, ms: number) => {
      pending.set(next, { at: now + ms, fn })
      return next++
    },
    clearTimeout: (h: unknown) => void pending.delete(h as number),
    advance(ms: number) {
      now += ms
      for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now) {
          pending.delete(id)
          t.fn()
        }
      }
    }
  }
}

const at = (x: number, width = 420): WindowState => ({ x, y: 10, width, height: 640, maximized: false })

function rig(saved?: WindowState) {
  const timers = manualTimers()
  let current: WindowState | null = at(0)
  const written: WindowState[] = []
  const logs: string[] = []
  let release: (() => void) | null = null
  let slow = false
  const saver = createBoundsSaver({
    capture: () => current,
    save: (s) => {
      written.push(s)
      return slow ? new Promise<void>((r) => (release = r)) : Promise.resolve()
    },
    saved,
    timers,
    log: (m) => logs.push(m)
  })
  return {
    saver,
    timers,
    written,
    logs,
    move: (s: WindowState | null) => (current = s),
    slow: () => (slow = true),
    release: () => release?.()
  }
}

describe('createBoundsSaver', () => {
  it('writes once the window has been still for the delay, the last bounds only', async () => {
    const r = rig()
    r.move(at(1))
    r.saver.schedule()
    r.timers.advance(BOUNDS_SAVE_DELAY_MS - 1)
    r.move(at(2))
    r.saver.schedule()
    r.timers.advance(BOUNDS_SAVE_DELAY_MS - 1)
    expect(r.written).toEqual([])
    r.timers.advance(1)
    await r.saver.flush()
    expect(r.written).toEqual([at(2)])
  })

  it('flush writes now and cancels the scheduled write', async () => {
    const r = rig()
    r.move(at(5))
    r.saver.schedule()
    await r.saver.flush()
    expect(r.written).toEqual([at(5)])
    expect(r.timers.pending.size).toBe(0)
  })

  it('never writes bounds already saved, nor when there is no window', async () => {
    const r = rig(at(0))
    await r.saver.flush()
    expect(r.written).toEqual([])
    r.move(at(3))
    await r.saver.flush()
    await r.saver.flush()
    expect(r.written).toEqual([at(3)])
    r.move(null)
    await r.saver.flush()
    expect(r.written).toEqual([at(3)])
  })

  it('flush waits for a write already under way, so quitting loses nothing', async () => {
    const r = rig()
    r.slow()
    r.move(at(7))
    r.saver.schedule()
    r.timers.advance(BOUNDS_SAVE_DELAY_MS)
    let flushed = false
    const f = r.saver.flush().then(() => (flushed = true))
    await Promise.resolve()
    expect(flushed).toBe(false)
    r.release()
    await f
    expect(flushed).toBe(true)
    expect(r.written).toEqual([at(7)])
  })

  it('logs a failed read or write and carries on', async () => {
    const timers = manualTimers()
    const logs: string[] = []
    let n = 0
    const saver = createBoundsSaver({
      capture: () => {
        if (n++ === 0) throw new Error('destroyed')
        return at(9)
      },
      save: () => Promise.reject(new Error('disk full')),
      timers,
      log: (m) => logs.push(m)
    })
    await saver.flush()
    await saver.flush()
    expect(logs).toEqual([expect.stringContaining('destroyed'), expect.stringContaining('disk full')])
  })
})

describe('sameWindowState', () => {
  it('compares every field', () => {
    expect(sameWindowState(at(1), at(1))).toBe(true)
    expect(sameWindowState(at(1), at(2))).toBe(false)
    expect(sameWindowState(at(1), at(1, 500))).toBe(false)
    expect(sameWindowState(at(1), { ...at(1), maximized: true })).toBe(false)
    expect(
      sameWindowState({ width: 1, height: 1, maximized: false }, { x: 0, width: 1, height: 1, maximized: false })
    ).toBe(false)
    expect(sameWindowState(undefined, at(1))).toBe(false)
    expect(sameWindowState(undefined, undefined)).toBe(true)
  })
})
