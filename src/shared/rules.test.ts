// The shared rules that every surface checks with (one owner each): their edges.
import { describe, expect, it } from 'vitest'
import { BUDGET_MAX_USD, budgetProblem, parseBudgetText } from './budget'
import { connectionIdProblem, idProblem, MAX_ID_LENGTH } from './ids'
import { boundProblem, POLLING_BOUNDS, pollingProblems } from './polling'
import { DEFAULT_NOTIFICATION_PREFS, DEFAULT_POLLING_PREFS } from './settings'
import { isTimeOfDay, minutesOfDay } from './time-of-day'
import { newWatchedProject, projectDisplayName } from './watched-project'

describe('budget', () => {
  it('reads what people type', () => {
    expect(parseBudgetText('')).toEqual({ ok: true, value: null })
    expect(parseBudgetText(' $2.50 ')).toEqual({ ok: true, value: 2.5 })
    expect(parseBudgetText('25')).toEqual({ ok: true, value: 25 })
    for (const bad of ['-1', 'abc', '1e3', '0x10', '2,50', String(BUDGET_MAX_USD + 1)])
      expect(parseBudgetText(bad).ok, bad).toBe(false)
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
    for (const ok of ['0b1c2d3e-0000-4000-8000-000000000000', 'proj_123', 'a:b.c-d'])
      expect(idProblem(ok), ok).toBeNull()
    expect(idProblem('')).toBe('must not be empty')
    expect(idProblem('..')).toMatch(/may contain only/)
    expect(idProblem('a/b')).toMatch(/may contain only/)
    expect(idProblem('a\u001b[2J')).toBe('must not contain control characters')
    expect(idProblem('a\u009b')).toBe('must not contain control characters')
    expect(idProblem('x'.repeat(201))).toBe('must be at most 200 characters')
    expect(idProblem('x'.repeat(MAX_ID_LENGTH))).toBeNull()
  })

  it("takes a connection id by the id rule, without ':' (the key store's other accounts are named with it)", () => {
    for (const ok of ['c-0a1b2c3d', 'demo', '0b1c2d3e-0000-4000-8000-000000000000'])
      expect(connectionIdProblem(ok), ok).toBeNull()
    expect(connectionIdProblem('forward:t1')).toBe("must not contain ':'")
    expect(connectionIdProblem('')).toBe('must not be empty')
    expect(connectionIdProblem('../x')).toMatch(/may contain only/)
  })
})

describe('polling', () => {
  const ok = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 4 }
  it('checks every field against its bounds, and idle against active', () => {
    expect(pollingProblems(ok)).toEqual({})
    expect(pollingProblems({ ...ok, activeIntervalMs: POLLING_BOUNDS.activeIntervalMs.min - 1 })).toHaveProperty(
      'activeIntervalMs'
    )
    expect(pollingProblems({ ...ok, idleIntervalMs: POLLING_BOUNDS.idleIntervalMs.max + 1 })).toHaveProperty(
      'idleIntervalMs'
    )
    expect(pollingProblems({ ...ok, maxConcurrency: 1.5 })).toHaveProperty('maxConcurrency')
    expect(pollingProblems({ ...ok, activeIntervalMs: 120_000 })).toEqual({
      idleIntervalMs: 'must not be shorter than activeIntervalMs'
    })
    expect(pollingProblems({ ...ok, activeIntervalMs: 60_000 })).toEqual({})
  })

  it('takes each bound itself, and says the same words for every field beyond it', () => {
    for (const [field, bounds] of Object.entries(POLLING_BOUNDS)) {
      const words = `must be a whole number from ${bounds.min} to ${bounds.max}`
      expect(boundProblem(bounds.min, bounds), field).toBeNull()
      expect(boundProblem(bounds.max, bounds), field).toBeNull()
      for (const bad of [bounds.min - 1, bounds.max + 1, bounds.min + 0.5])
        expect(boundProblem(bad, bounds), `${field} ${bad}`).toBe(words)
    }
    expect(pollingProblems({ activeIntervalMs: 1_000, idleIntervalMs: 5_000, maxConcurrency: 1 })).toStrictEqual({})
    expect(
      pollingProblems({ activeIntervalMs: 3_600_000, idleIntervalMs: 86_400_000, maxConcurrency: 16 })
    ).toStrictEqual({})
    expect(pollingProblems({ ...ok, maxConcurrency: 17 })).toStrictEqual({
      maxConcurrency: 'must be a whole number from 1 to 16'
    })
  })

  it('compares idle with active only when both are in bounds, so each field has its one reason', () => {
    // An active interval out of bounds, longer than a good idle one.
    expect(pollingProblems({ ...ok, activeIntervalMs: 3_600_001 })).toStrictEqual({
      activeIntervalMs: 'must be a whole number from 1000 to 3600000'
    })
    // An idle interval out of bounds, shorter than a good active one.
    expect(pollingProblems({ ...ok, idleIntervalMs: 4_999.5 })).toStrictEqual({
      idleIntervalMs: 'must be a whole number from 5000 to 86400000'
    })
  })
})

describe('the defaults', () => {
  it('keep to the rules the user is held to', () => {
    expect(pollingProblems(DEFAULT_POLLING_PREFS)).toStrictEqual({})
    expect(isTimeOfDay(DEFAULT_NOTIFICATION_PREFS.quietHours.start)).toBe(true)
    expect(isTimeOfDay(DEFAULT_NOTIFICATION_PREFS.quietHours.end)).toBe(true)
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
    expect(newWatchedProject('p1', at)).toStrictEqual({
      projectId: 'p1',
      name: '',
      muted: false,
      addedAt: at.toISOString()
    })
    expect(newWatchedProject('p1', at, { softwareProductId: '' })).toStrictEqual({
      projectId: 'p1',
      name: '',
      muted: false,
      addedAt: at.toISOString()
    })
    expect(newWatchedProject('p1', at, { softwareProductId: 'sp1', muted: true })).toStrictEqual({
      projectId: 'p1',
      name: '',
      muted: true,
      addedAt: at.toISOString(),
      softwareProductId: 'sp1'
    })
    expect(newWatchedProject('p1', at, { name: 'Shop' })).toMatchObject({ name: 'Shop' })
    const watched = { projectId: 'p1', name: 'Remembered' }
    expect(projectDisplayName(watched, { name: 'Fetched' })).toBe('Fetched')
    expect(projectDisplayName(watched, null)).toBe('Remembered')
    expect(projectDisplayName({ projectId: 'p1', name: '' }, { name: '' })).toBe('p1')
  })
})
