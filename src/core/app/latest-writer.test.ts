import { describe, expect, it } from 'vitest'
import { createLatestWriter } from './latest-writer'

describe('createLatestWriter', () => {
  it('writes one at a time and skips values superseded during a write', async () => {
    const written: number[] = []
    let active = 0
    let maxActive = 0
    const writer = createLatestWriter<number>(
      async (v) => {
        active++
        maxActive = Math.max(maxActive, active)
        await new Promise((r) => setTimeout(r, 5))
        written.push(v)
        active--
      },
      () => undefined
    )
    writer.write(1)
    writer.write(2)
    writer.write(3)
    await writer.settled()
    // 1 was already being written when 2 and 3 came; 2 was superseded before its turn.
    expect(written).toEqual([1, 3])
    expect(maxActive).toBe(1)
  })

  it('reports a failed write and keeps going', async () => {
    const errors: unknown[] = []
    const written: string[] = []
    const writer = createLatestWriter<string>(
      async (v) => {
        if (v === 'bad') throw new Error('disk full')
        written.push(v)
      },
      (e) => errors.push(e)
    )
    writer.write('bad')
    await writer.settled()
    writer.write('good')
    await writer.settled()
    expect(errors).toHaveLength(1)
    expect(written).toEqual(['good'])
  })
})
