// The shared rules that every surface checks with (one owner each): their edges.
import { describe, expect, it } from 'vitest'
import { BUDGET_MAX_USD, budgetProblem, parseBudgetText } from './budget'
import { idProblem } from './ids'
import { POLLING_BOUNDS, pollingProblems } from './polling'
import { isTimeOfDay, minutesOfDay } from './time-of-day'
import { newWatchedProject, projectDisplayName } from './watched-project'

describe('budget', () => {
  it('reads what people type', () => {
    expect(parseBudgetText('')).toEqual({ ok: true, value: null })
    expect(parseBudgetText(' $2.50 ')).toEqual({ ok: true, value: 2.5 })
    expect(parseBudgetText('25')).toEqual({ ok: true, value: 25 })
    for (const bad of ['-1', 'abc', '1e3', '0x10', '2,50', String(BUDGET_MAX_USD + 1)]) expect(parseBudgetText(bad).ok, bad).toBe(false)
  })

  it('bounds a stored budget', () => {
    expect(budgetProblem(null)).toBeNull()
    expect(budgetProblem(0)).toBeNull()
    expect(budgetProblem(BUDGET_MAX_USD)).toBeNull()
    expect(budgetProblem(-0.01)).toMatch(/not negative/)
    expect(budgetProblem(Number.NaN)).toMatch(/not negative/)
    expect(budgetProblem(BUDGET_MAX_USD + 1)).toMatch(/at most/)
  })
})

describe('ids', () => {
  it('takes UUIDs and plain ids, refuses what could change a path or is unsafe to echo', () => {
    for (const ok of ['0b1c2d3e-0000-4000-8000-000000000000', 'proj_123', 'a:b.c-d']) expect(idProblem(ok), ok).toBeNull()
    expect(idProblem('')).toBe('must not be empty')
    expect(idProblem('..')).toMatch(/may contain only/)
    expect(idProblem('a/b')).toMatch(/may contain only/)
    expect(idProblem('a\u001b[2J')).toBe('must not contain control characters')
    expect(idProblem('a\u009b')).toBe('must not contain control characters')
    expect(idProblem('x'.repeat(201))).toBe('must be at most 200 characters')
  })
})

describe('polling', () => {
  const ok = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 4 }
  it('checks every field against its bounds, and idle against active', () => {
    expect(pollingProblems(ok)).toEqual({})
    expect(pollingProblems({ ...ok, activeIntervalMs: POLLING_BOUNDS.activeIntervalMs.min - 1 })).toHaveProperty('activeIntervalMs')
    expect(pollingProblems({ ...ok, idleIntervalMs: POLLING_BOUNDS.idleIntervalMs.max + 1 })).toHaveProperty('idleIntervalMs')
    expect(pollingProblems({ ...ok, maxConcurrency: 1.5 })).toHaveProperty('maxConcurrency')
    expect(pollingProblems({ ...ok, activeIntervalMs: 120_000 })).toEqual({ idleIntervalMs: 'must not be shorter than activeIntervalMs' })
  })
})

describe('time of day', () => {
  it('is HH:MM, 24-hour', () => {
    expect(isTimeOfDay('07:30')).toBe(true)
    expect(isTimeOfDay('24:00')).toBe(false)
    expect(isTimeOfDay('7:30')).toBe(false)
    expect(minutesOfDay('23:59')).toBe(1439)
    expect(minutesOfDay('x')).toBeNull()
  })
})

describe('watched project', () => {
  it('makes a new entry and names a project the same way everywhere', () => {
    const at = new Date('2026-01-02T03:04:05.000Z')
    expect(newWatchedProject('p1', at)).toEqual({ projectId: 'p1', name: '', muted: false, addedAt: at.toISOString() })
    expect(newWatchedProject('p1', at, { name: 'Shop' })).toMatchObject({ name: 'Shop' })
    const watched = { projectId: 'p1', name: 'Remembered' }
    expect(projectDisplayName(watched, { name: 'Fetched' })).toBe('Fetched')
    expect(projectDisplayName(watched, null)).toBe('Remembered')
    expect(projectDisplayName({ projectId: 'p1', name: '' }, { name: '' })).toBe('p1')
  })
})
