// A CSV field: empty for what is absent or no finite number (cost-report.test.ts writes whole reports).
import { describe, expect, it } from 'vitest'
import { csvField, toCsv } from './csv'

describe('csvField', () => {
  it('writes nothing for an absent value or a number that is not finite', () => {
    for (const value of [null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(csvField(value), String(value)).toBe('')
    expect(toCsv(['a', 'b', 'c'], [[Number.NaN, null, 0]], '\n')).toBe('a,b,c\n,,0\n')
  })
})
