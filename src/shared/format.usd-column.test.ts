import { describe, expect, it } from 'vitest'
import { formatUsdCell, formatUsdColumn, formatUsdFixed, usdColumnDecimals } from './format'

describe('usdColumnDecimals', () => {
  it('picks cents when every non-zero amount is a dollar or more', () => {
    expect(usdColumnDecimals([1.59, 12.3, 0, null])).toBe(2)
    expect(usdColumnDecimals([])).toBe(2)
    expect(usdColumnDecimals([0, undefined, Number.NaN])).toBe(2)
  })

  it('picks 4 decimals down to $0.0001 and 6 below it', () => {
    expect(usdColumnDecimals([0.38236, 0.583508, 1.59])).toBe(4)
    expect(usdColumnDecimals([0.0001, 3])).toBe(4)
    expect(usdColumnDecimals([0.000099, 3])).toBe(6)
    expect(usdColumnDecimals([-0.00005])).toBe(6)
  })
})

describe('formatUsdFixed', () => {
  it('always gives exactly the asked decimals, with thousands grouped', () => {
    expect(formatUsdFixed(1.59, 4)).toBe('$1.5900')
    expect(formatUsdFixed(0.38236, 4)).toBe('$0.3824')
    expect(formatUsdFixed(1234.5, 2)).toBe('$1,234.50')
    expect(formatUsdFixed(0, 6)).toBe('$0.000000')
    expect(formatUsdFixed(-0.25, 4)).toBe('-$0.2500')
  })

  it('never shows a non-zero amount as zero, and a dash for missing', () => {
    expect(formatUsdFixed(0.00001, 4)).toBe('<$0.0001')
    expect(formatUsdFixed(-0.001, 2)).toBe('-<$0.01')
    expect(formatUsdFixed(null, 4)).toBe('–')
    expect(formatUsdFixed(Number.POSITIVE_INFINITY, 4)).toBe('–')
  })
})

describe('formatUsdColumn', () => {
  it('gives one column one precision, so the decimal points line up', () => {
    const column = formatUsdColumn([0.38236, 0.583508, 1.59])
    expect(column).toEqual(['$0.3824', '$0.5835', '$1.5900'])
    expect(new Set(column.map((c) => c.length - c.indexOf('.'))).size).toBe(1)
    expect(formatUsdColumn([0.000042, 0.5])).toEqual(['$0.000042', '$0.500000'])
    expect(formatUsdColumn([2, 10.5, null])).toEqual(['$2.00', '$10.50', '–'])
  })
})

describe('formatUsdCell', () => {
  it('shows nothing as a dash and anything else in the column precision', () => {
    expect(formatUsdCell(0, 4)).toBe('–')
    expect(formatUsdCell(null, 2)).toBe('–')
    expect(formatUsdCell(Number.NaN, 2)).toBe('–')
    expect(formatUsdCell(0.0123, 4)).toBe('$0.0123')
    expect(formatUsdCell(0.00001, 4)).toBe('<$0.0001')
  })
})
