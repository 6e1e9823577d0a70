import { describe, expect, it } from 'vitest'
import { toReport } from './error-report'

describe('a window error as reported', () => {
  it('names the error, keeps its stack, bounds both', () => {
    const error = new TypeError('x is undefined')
    expect(toReport('error', error, 'f')).toEqual({
      kind: 'error',
      message: 'TypeError: x is undefined',
      stack: error.stack
    })
    expect(toReport('unhandledrejection', 'plain reason', 'f')).toEqual({
      kind: 'unhandledrejection',
      message: 'plain reason'
    })
    expect(toReport('unhandledrejection', { code: 1 }, 'fallback words')).toEqual({
      kind: 'unhandledrejection',
      message: 'fallback words'
    })
    const long = new Error('m'.repeat(5000))
    long.stack = 's'.repeat(20_000)
    const r = toReport('error', long, 'f')
    expect(r.message).toHaveLength(1000)
    expect(r.stack).toHaveLength(8000)
  })
})
