import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PollingPrefs } from '../../shared/settings'
import { dueProjects, newScheduleEntry, nextDelay, nextWakeAt, type ScheduleEntry, Scheduler } from './scheduler'

const prefs: PollingPrefs = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 2 }
const mid = (): number => 0.5 // no jitter
const options = { jitterRatio: 0.1, maxBackoffMs: 300_000 }

describe('nextDelay', () => {
  it('polls fast while active and slow when idle', () => {
    expect(nextDelay({ ok: true, active: true }, 0, prefs, mid, options)).toBe(5_000)
    expect(nextDelay({ ok: true, active: false }, 0, prefs, mid, options)).toBe(60_000)
  })

  it('jitters by at most ±10%', () => {
    expect(nextDelay({ ok: true, active: true }, 0, prefs, () => 0, options)).toBe(4_500)
    expect(nextDelay({ ok: true, active: true }, 0, prefs, () => 0.999999, options)).toBe(5_500)
    expect(nextDelay({ ok: true, active: false }, 0, prefs, () => 0.25, options)).toBe(57_000)
  })

  it('backs off exponentially on errors, up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 10].map((n) => nextDelay({ ok: false, kind: 'server' }, n, prefs, mid, options))
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 300_000])
  })

  it('honours retryAfter for rate limiting, jittering only upwards', () => {
    expect(nextDelay({ ok: false, kind: 'rate_limited', retryAfterMs: 30_000 }, 1, prefs, () => 0, options)).toBe(
      30_000
    )
    expect(nextDelay({ ok: false, kind: 'rate_limited', retryAfterMs: 30_000 }, 1, prefs, () => 0.5, options)).toBe(
      31_500
    )
    // Backoff longer than the server's wait wins.
    expect(nextDelay({ ok: false, kind: 'rate_limited', retryAfterMs: 1_000 }, 3, prefs, () => 0, options)).toBe(20_000)
    expect(nextDelay({ ok: false, kind: 'rate_limited' }, 2, prefs, mid, options)).toBe(10_000)
  })

  it('takes a Retry-After of nothing as no wait: the backoff, jittered both ways', () => {
    expect(nextDelay({ ok: false, kind: 'rate_limited', retryAfterMs: 0 }, 1, prefs, () => 0, options)).toBe(4_500)
    expect(nextDelay({ ok: false, kind: 'rate_limited', retryAfterMs: -1_000 }, 1, prefs, () => 0, options)).toBe(4_500)
  })

  it('honours a wait only from a rate limit (the client gives one with no other kind)', () => {
    expect(nextDelay({ ok: false, kind: 'server', retryAfterMs: 30_000 }, 1, prefs, mid, options)).toBe(5_000)
  })

  it('never backs off beyond the idle interval when that is longer than the cap', () => {
    const slow = { ...prefs, idleIntervalMs: 600_000 }
    expect(nextDelay({ ok: false, kind: 'server' }, 20, slow, mid, options)).toBe(600_000)
  })

  it('falls back to the slow interval for auth and not-found errors', () => {
    expect(nextDelay({ ok: false, kind: 'auth' }, 7, prefs, mid, options)).toBe(60_000)
    expect(nextDelay({ ok: false, kind: 'not_found' }, 1, prefs, mid, options)).toBe(60_000)
  })
})

function entry(over: Partial<ScheduleEntry> & Pick<ScheduleEntry, 'projectId'>): ScheduleEntry {
  return { active: false, dueAt: 0, inFlight: false, forced: false, consecutiveErrors: 0, ...over }
}

describe('dueProjects / nextWakeAt', () => {
  it('picks due projects by due time within the free slots', () => {
    const entries = [
      entry({ projectId: 'a', dueAt: 300 }),
      entry({ projectId: 'b', dueAt: 100 }),
      entry({ projectId: 'c', dueAt: 200 }),
      entry({ projectId: 'd', dueAt: 900 })
    ]
    expect(dueProjects(entries, 500, { maxConcurrency: 2, paused: false })).toEqual(['b', 'c'])
    expect(dueProjects(entries, 500, { maxConcurrency: 10, paused: false })).toEqual(['b', 'c', 'a'])
    entries[1]!.inFlight = true
    expect(dueProjects(entries, 500, { maxConcurrency: 2, paused: false })).toEqual(['c'])
    expect(nextWakeAt(entries, { paused: false })).toBe(200)
  })

  it('runs only forced projects while paused, forced first otherwise', () => {
    const entries = [entry({ projectId: 'a', dueAt: 0 }), entry({ projectId: 'b', dueAt: 800, forced: true })]
    expect(dueProjects(entries, 500, { maxConcurrency: 1, paused: true })).toEqual(['b'])
    expect(dueProjects(entries, 500, { maxConcurrency: 1, paused: false })).toEqual(['b'])
    expect(nextWakeAt([entries[0]!], { paused: true })).toBeNull()
  })

  it('polls a project new to the schedule at once, but not while paused, and not before one asked for', () => {
    const fresh = newScheduleEntry('a', 500)
    expect(dueProjects([fresh], 500, { maxConcurrency: 1, paused: false })).toEqual(['a'])
    expect(dueProjects([fresh], 500, { maxConcurrency: 1, paused: true })).toEqual([])
    expect(
      dueProjects([fresh, entry({ projectId: 'b', dueAt: 900, forced: true })], 500, {
        maxConcurrency: 1,
        paused: false
      })
    ).toEqual(['b'])
  })

  it('projects due at the same time go by id, whatever order they were watched in (the property test draws ties only on some seeds)', () => {
    const all = ['d', 'b', 'e', 'a', 'c'].map((projectId) => entry({ projectId, dueAt: 5 }))
    expect(dueProjects(all, 5, { maxConcurrency: 3, paused: false })).toEqual(['a', 'b', 'c'])
    expect(dueProjects(all, 5, { maxConcurrency: 6, paused: false })).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(dueProjects([...all].reverse(), 5, { maxConcurrency: 2, paused: false })).toEqual(['a', 'b'])
  })

  it('picks what a full sort by urgency would, for any entries', () => {
    const arbEntry = fc.record({
      projectId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      dueAt: fc.integer({ min: 0, max: 10 }),
      inFlight: fc.boolean(),
      forced: fc.boolean()
    })
    const arbInput = fc.record({
      entries: fc.uniqueArray(arbEntry, { selector: (e) => e.projectId, maxLength: 8 }),
      now: fc.integer({ min: 0, max: 10 }),
      maxConcurrency: fc.integer({ min: 0, max: 6 }),
      paused: fc.boolean()
    })
    fc.assert(
      fc.property(arbInput, ({ entries, now, maxConcurrency, paused }) => {
        const all = entries.map((e) => entry(e))
        const slots = Math.max(1, maxConcurrency) - all.filter((e) => e.inFlight).length
        const expected = all
          .filter((e) => !e.inFlight && (e.forced || (!paused && e.dueAt <= now)))
          .sort(
            (a, b) => Number(b.forced) - Number(a.forced) || a.dueAt - b.dueAt || (a.projectId < b.projectId ? -1 : 1)
          )
          .slice(0, Math.max(0, slots))
          .map((e) => e.projectId)
        expect(dueProjects(all, now, { maxConcurrency, paused })).toEqual(expected)
      })
    )
  })
})

/** A scheduler over entries kept in a map, as the monitor keeps them in its project records. */
function scheduler(): { s: Scheduler; entries: Map<string, ScheduleEntry>; add: (id: string, now: number) => void } {
  const entries = new Map<string, ScheduleEntry>()
  const s = new Scheduler(prefs, mid, options, entries)
  return { s, entries, add: (id, now) => entries.set(id, newScheduleEntry(id, now)) }
}

describe('Scheduler', () => {
  it('follows a project through success, errors and recovery', () => {
    const { s, entries, add } = scheduler()
    add('p', 1_000)
    expect(s.due(1_000, false)).toEqual(['p'])
    s.started('p')
    expect(s.due(1_000, false)).toEqual([])
    expect(s.wakeAt(false)).toBeNull()
    expect(s.finished('p', { ok: true, active: true }, 1_100)).toBe(6_100)
    s.started('p')
    expect(s.finished('p', { ok: false, kind: 'server' }, 6_200)).toBe(11_200)
    s.started('p')
    expect(s.finished('p', { ok: false, kind: 'server' }, 11_300)).toBe(21_300)
    s.started('p')
    expect(s.finished('p', { ok: true, active: false }, 21_400)).toBe(81_400)
    expect(entries.get('p')?.consecutiveErrors).toBe(0)
  })

  it('limits concurrency across all projects', () => {
    const { s, add } = scheduler()
    for (const id of ['a', 'b', 'c']) add(id, 0)
    const first = s.due(0, false)
    expect(first).toHaveLength(2)
    first.forEach((id) => s.started(id))
    expect(s.due(0, false)).toEqual([])
    s.finished(first[0]!, { ok: true, active: false }, 10)
    expect(s.due(10, false)).toEqual(['c'])
  })

  it('polls again right after an in-flight poll when forced meanwhile', () => {
    const { s, add } = scheduler()
    add('a', 0)
    s.started('a')
    s.force('a')
    s.finished('a', { ok: true, active: false }, 50)
    expect(s.due(50, true)).toEqual(['a'])
  })

  it('brings shorter intervals forward when preferences change', () => {
    const { s, add } = scheduler()
    add('a', 0)
    s.started('a')
    s.finished('a', { ok: true, active: false }, 0)
    expect(s.wakeAt(false)).toBe(60_000)
    s.setPrefs({ ...prefs, idleIntervalMs: 10_000 }, 1_000)
    expect(s.wakeAt(false)).toBe(11_000)
  })

  it('a shorter interval leaves a project backing off after errors at its backoff', () => {
    const { s, add } = scheduler()
    add('a', 0)
    for (const at of [0, 5_000, 15_000]) {
      s.started('a')
      s.finished('a', { ok: false, kind: 'server' }, at)
    }
    // Third error in a row: 20 s of backoff, due at 35 s.
    expect(s.wakeAt(false)).toBe(35_000)
    s.setPrefs({ ...prefs, idleIntervalMs: 10_000, activeIntervalMs: 2_000 }, 16_000)
    expect(s.wakeAt(false)).toBe(35_000)
  })

  it('a shorter interval never postpones a project already due sooner than it', () => {
    const { s, add } = scheduler()
    add('a', 0)
    s.started('a')
    s.finished('a', { ok: true, active: false }, 0)
    // Due at 60 s; at 55 s the idle interval drops to 10 s: it still polls at 60 s, not 65 s.
    s.setPrefs({ ...prefs, idleIntervalMs: 10_000 }, 55_000)
    expect(s.wakeAt(false)).toBe(60_000)
  })
})

describe('Scheduler.setPrefs', () => {
  it('brings an active project forward for a shorter active interval, not for a shorter idle one', () => {
    const { s, add } = scheduler()
    add('a', 0)
    s.started('a')
    s.finished('a', { ok: true, active: true }, 0)
    expect(s.wakeAt(false)).toBe(5_000)
    s.setPrefs({ ...prefs, idleIntervalMs: 10_000 }, 1_000)
    expect(s.wakeAt(false)).toBe(5_000)
    s.setPrefs({ ...prefs, idleIntervalMs: 10_000, activeIntervalMs: 2_000 }, 1_000)
    expect(s.wakeAt(false)).toBe(3_000)
  })

  it('leaves each poll at its own time, jitter included, when no interval got shorter', () => {
    const entries = new Map<string, ScheduleEntry>()
    // The most jitter upwards: due 10 % later than the interval.
    const s = new Scheduler(prefs, () => 0.999999, options, entries)
    entries.set('a', newScheduleEntry('a', 0))
    s.started('a')
    s.finished('a', { ok: true, active: false }, 0)
    expect(s.wakeAt(false)).toBe(66_000)
    s.setPrefs({ ...prefs, maxConcurrency: 8 }, 1_000)
    expect(s.wakeAt(false)).toBe(66_000)
    s.setPrefs({ ...prefs, maxConcurrency: 8, idleIntervalMs: 61_000 }, 1_000)
    expect(s.wakeAt(false)).toBe(66_000)
    expect(s.maxConcurrency).toBe(8)
  })
})

describe('Scheduler: projects it does not have', () => {
  it('ignores a force, start or finish of a project not in its entries', () => {
    const { s, add } = scheduler()
    add('a', 0)
    s.force('gone')
    s.started('gone')
    expect(s.finished('gone', { ok: true, active: false }, 10)).toBeNull()
    expect(s.inFlightCount()).toBe(0)
    expect(s.due(0, true)).toEqual([])
  })
})

describe('Scheduler.inFlightCount', () => {
  it('counts each poll once: finished twice, or removed and then finished, it leaves the count once', () => {
    const { s, entries, add } = scheduler()
    for (const id of ['a', 'b', 'c']) add(id, 0)
    s.started('a')
    s.started('b')
    s.started('c')
    s.finished('a', { ok: true, active: false }, 10)
    s.finished('a', { ok: true, active: false }, 20)
    expect(s.inFlightCount()).toBe(2)
    s.removed(entries.get('b')!)
    s.finished('b', { ok: true, active: false }, 20)
    s.removed(entries.get('b')!)
    expect(s.inFlightCount()).toBe(1)
  })

  it('counts polls started and not yet finished, also when a project is removed mid-poll', () => {
    const { s, entries, add } = scheduler()
    for (const id of ['a', 'b', 'c']) add(id, 0)
    s.started('a')
    s.started('b')
    s.started('b')
    expect(s.inFlightCount()).toBe(2)
    s.finished('a', { ok: true, active: false }, 10)
    expect(s.inFlightCount()).toBe(1)
    s.removed(entries.get('b')!)
    entries.delete('b')
    s.finished('b', { ok: true, active: false }, 10)
    expect(s.inFlightCount()).toBe(0)
  })
})
