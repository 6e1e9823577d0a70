import { describe, expect, it } from 'vitest'
import { costsMoreThanUsual, median, usualCost } from './unusual'

describe('costing more than usual', () => {
  it('is the median of completed tasks, once there are at least 3', () => {
    expect(usualCost([1, 2])).toBeNull()
    expect(usualCost([1, 2, 10])).toBe(2)
    expect(median([1, 2, 3, 10])).toBe(2.5)
  })

  it('flags a running task past 3 × the median, not at it', () => {
    const usual = usualCost([0.5, 1, 1.5]) as number
    expect(usual).toBe(1)
    expect(costsMoreThanUsual(3, usual)).toBe(false)
    expect(costsMoreThanUsual(3.01, usual)).toBe(true)
  })

  it('takes the middle of the costs whatever order the tasks were listed in', () => {
    expect(usualCost([10, 1, 2])).toBe(2)
    expect(usualCost([30, 4, 100, 2])).toBe(17)
    expect(median([])).toBeNull()
  })
})
