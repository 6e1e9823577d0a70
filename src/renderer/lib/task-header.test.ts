import { describe, expect, it } from 'vitest'
import { requirementWorthShowing, taskMetaLine } from './task-header'

describe('requirementWorthShowing', () => {
  it('hides a requirement that only repeats the title, and shows one that says more', () => {
    expect(requirementWorthShowing('Add a search box', 'Add a search box.')).toBe(false)
    expect(requirementWorthShowing('Add a search box', '  add a  search box ')).toBe(false)
    expect(requirementWorthShowing('Add a search box', 'Add a search box that filters recipes by name')).toBe(true)
    expect(requirementWorthShowing('Add a search box', '')).toBe(false)
  })
})

describe('taskMetaLine', () => {
  it('says duration, branch and cost in cents on one line, leaving out what is absent', () => {
    expect(
      taskMetaLine({
        created_at: '2026-11-26T10:00:00Z',
        updated_at: '2026-11-26T10:04:05Z',
        branch: 'feature/search',
        total_price: 0.30123
      })
    ).toBe('4 m 05 s · feature/search · $0.30')
    expect(taskMetaLine({ created_at: 'x', updated_at: 'y', branch: '', total_price: null })).toBe('')
  })
})
