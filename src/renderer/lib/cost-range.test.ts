import { describe, expect, it } from 'vitest'
import { costRange } from './cost-range'

describe('costRange', () => {
  it('gives each preset as local days ending today, across month and year ends', () => {
    expect(costRange('last-7', '2026-03-02')).toEqual({ since: '2026-02-24', until: '2026-03-02' })
    expect(costRange('last-30', '2026-03-02')).toEqual({ since: '2026-02-01', until: '2026-03-02' })
    expect(costRange('this-month', '2026-03-02')).toEqual({ since: '2026-03-01', until: '2026-03-02' })
    expect(costRange('last-month', '2026-01-15')).toEqual({ since: '2025-12-01', until: '2025-12-31' })
    expect(costRange('last-month', '2024-03-31')).toEqual({ since: '2024-02-01', until: '2024-02-29' })
    expect(costRange('this-year', '2026-03-02')).toEqual({ since: '2026-01-01', until: '2026-03-02' })
  })
})
