import { describe, expect, it } from 'vitest'
import { watchOnline } from './online'

function manualTimers() {
  const intervals = new Map<number, () => void>()
  let next = 1
  return {
    intervals,
    tick: () => [...intervals.values()].forEach((fn) => fn()),
    setInterval: (fn: () => void) => {
      intervals.set(next, fn)
      return next++
    },
    clearInterval: (h: unknown) => void intervals.delete(h as number)
  }
}

describe('watchOnline', () => {
  it('reports the first state, then only changes', () => {
    const timers = manualTimers()
    let online = true
    const seen: boolean[] = []
    const w = watchOnline({ isOnline: () => online, onChange: (o) => seen.push(o), timers })
    timers.tick()
    online = false
    timers.tick()
    timers.tick()
    online = true
    w.check()
    expect(seen).toEqual([true, false, true])
    w.stop()
    expect(timers.intervals.size).toBe(0)
  })

  it('treats a throwing probe as online', () => {
    const timers = manualTimers()
    const seen: boolean[] = []
    let fail = false
    watchOnline({
      isOnline: () => {
        if (fail) throw new Error('no net module')
        return false
      },
      onChange: (o) => seen.push(o),
      timers
    })
    fail = true
    timers.tick()
    expect(seen).toEqual([false, true])
  })
})
