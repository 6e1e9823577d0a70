import { describe, expect, it } from 'vitest'
import { meterPercent, meterScale } from './meter'

describe('meterPercent', () => {
  it('fills in proportion and never past the track', () => {
    expect(meterPercent(5, 20)).toBe(25)
    expect(meterPercent(40, 20)).toBe(100)
    expect(meterPercent(-1, 20)).toBe(0)
    expect(meterPercent(1, 0)).toBe(100)
  })
})

describe('meterScale', () => {
  it('is the limit until spending or its projection goes past it', () => {
    expect(meterScale(10, 4, null)).toBe(10)
    expect(meterScale(10, 12, 30)).toBe(30)
    expect(meterScale(0, 0)).toBe(1)
    expect(meterPercent(10, meterScale(10, 20))).toBe(50)
  })
})
