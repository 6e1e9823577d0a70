import { describe, expect, it } from 'vitest'
import { checkCustomRange, chosenRange, costRange } from './cost-range'

describe('costRange', () => {
  it('gives each preset as local days ending today, across month and year ends', () => {
    expect(costRange('last-7', '2026-03-02')).toEqual({ since: '2026-02-24', until: '2026-03-02' })
    expect(costRange('last-30', '2026-03-02')).toEqual({ since: '2026-02-01', until: '2026-03-02' })
    expect(costRange('this-month', '2026-03-02')).toEqual({ since: '2026-03-01', until: '2026-03-02' })
    expect(costRange('last-90', '2026-03-02')).toEqual({ since: '2025-12-03', until: '2026-03-02' })
  })

  it('gives a custom choice its own days, whatever today is', () => {
    expect(chosenRange({ id: 'custom', range: { since: '2025-12-24', until: '2026-01-02' } }, '2026-03-02')).toEqual({
      since: '2025-12-24',
      until: '2026-01-02'
    })
    expect(chosenRange({ id: 'last-7' }, '2026-03-02')).toEqual({ since: '2026-02-24', until: '2026-03-02' })
  })
})

describe('checkCustomRange', () => {
  const today = '2026-03-31'

  it('takes two whole days, the last not before the first, neither after today', () => {
    expect(checkCustomRange({ since: '2026-03-01', until: '2026-03-01' }, today)).toEqual({
      ok: true,
      range: { since: '2026-03-01', until: '2026-03-01' }
    })
    expect(checkCustomRange({ since: '2025-12-24', until: today }, today)).toEqual({
      ok: true,
      range: { since: '2025-12-24', until: today }
    })
  })

  it('puts each problem on its field, in the form’s words', () => {
    expect(checkCustomRange({ since: '', until: '' }, today)).toEqual({
      ok: false,
      errors: { since: 'Enter the first day as a whole date.', until: 'Enter the last day as a whole date.' }
    })
    expect(checkCustomRange({ since: '2026-03-10', until: '2026-03-09' }, today)).toEqual({
      ok: false,
      errors: { until: 'The last day must not be before the first day (2026-03-10).' }
    })
    expect(checkCustomRange({ since: '2026-03-10', until: '2026-04-01' }, today)).toEqual({
      ok: false,
      errors: { until: 'The last day must not be after today (2026-03-31).' }
    })
    expect(checkCustomRange({ since: '0002-03-10', until: '2026-03-09' }, today)).toEqual({
      ok: false,
      errors: { since: 'The first day must be 2016-03-02 or later: a range covers at most 3660 days.' }
    })
  })
})
