import { describe, expect, it } from 'vitest'
import { sleep } from './sleep'

describe('sleep', () => {
  it('waits about as long as asked', async () => {
    const start = Date.now()
    await sleep(30)
    expect(Date.now() - start).toBeGreaterThanOrEqual(25)
  })

  it('ends early with the signal reason on abort, and at once when already aborted', async () => {
    const controller = new AbortController()
    const waiting = sleep(60_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(waiting).rejects.toThrow('stop')
    await expect(sleep(60_000, AbortSignal.abort(new Error('already')))).rejects.toThrow('already')
  })
})
