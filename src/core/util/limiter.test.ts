import { describe, expect, it } from 'vitest'
import { createLimiter } from './limiter'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('createLimiter', () => {
  it('runs at most max at once, the rest in order, and passes results and errors through', async () => {
    const limiter = createLimiter(2)
    const gates = [deferred(), deferred(), deferred()]
    const started: number[] = []
    const runs = gates.map((g, i) => limiter.run(async () => (started.push(i), await g.promise, i)))
    const failing = limiter.run(async () => {
      throw new Error('boom')
    })
    await Promise.resolve()
    expect(started).toEqual([0, 1])
    expect([limiter.active, limiter.waiting]).toEqual([2, 2])
    gates[1]!.resolve()
    expect(await runs[1]).toBe(1)
    expect(started).toEqual([0, 1, 2])
    gates[0]!.resolve()
    gates[2]!.resolve()
    await expect(failing).rejects.toThrow('boom')
    expect(await Promise.all(runs)).toEqual([0, 1, 2])
    expect([limiter.active, limiter.waiting]).toEqual([0, 0])
  })

  it('starts waiting tasks when the limit grows', async () => {
    const limiter = createLimiter(1)
    const gate = deferred()
    const started: string[] = []
    void limiter.run(async () => (started.push('a'), await gate.promise))
    void limiter.run(async () => void started.push('b'))
    await Promise.resolve()
    expect(started).toEqual(['a'])
    limiter.setMax(2)
    expect(started).toEqual(['a', 'b'])
    gate.resolve()
  })
})
