import { describe, expect, it } from 'vitest'
import { createReadyQueue } from './ready-queue'

describe('createReadyQueue', () => {
  it('keeps actions until ready, does them in order, then runs new ones at once', () => {
    const errors: string[] = []
    const q = createReadyQueue<string[]>((key) => errors.push(key))
    const done: string[] = []
    q.run('show', (log) => log.push('show'))
    q.run('demo', (log) => log.push('demo'))
    expect(q.isReady).toBe(false)
    expect(done).toEqual([])
    q.ready(done)
    expect(q.isReady).toBe(true)
    expect(done).toEqual(['show', 'demo'])
    q.run('show', (log) => log.push('show again'))
    expect(done).toEqual(['show', 'demo', 'show again'])
    expect(errors).toEqual([])
  })

  it('does an action asked twice before ready only once, where first asked', () => {
    const q = createReadyQueue<string[]>(() => {})
    const done: string[] = []
    q.run('show', (log) => log.push('show 1'))
    q.run('demo', (log) => log.push('demo'))
    q.run('show', (log) => log.push('show 2'))
    q.ready(done)
    expect(done).toEqual(['show 2', 'demo'])
  })

  it('ignores a second ready and keeps going past a failing action', () => {
    const errors: string[] = []
    const q = createReadyQueue<string[]>((key, e) => errors.push(`${key}: ${(e as Error).message}`))
    const done: string[] = []
    q.run('boom', () => {
      throw new Error('no window')
    })
    q.run('show', (log) => log.push('show'))
    q.ready(done)
    q.ready(['other'])
    expect(done).toEqual(['show'])
    expect(errors).toEqual(['boom: no window'])
    q.run('show', (log) => log.push('later'))
    expect(done).toEqual(['show', 'later'])
  })
})
