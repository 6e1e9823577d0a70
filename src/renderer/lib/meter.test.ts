import { describe, expect, it } from 'vitest'
import { meterPercent } from './meter'

describe('meterPercent', () => {
  it('fills in proportion and never past the track', () => {
    expect(meterPercent(5, 20)).toBe(25)
    expect(meterPercent(40, 20)).toBe(100)
    expect(meterPercent(-1, 20)).toBe(0)
    expect(meterPercent(1, 0)).toBe(100)
  })
})
