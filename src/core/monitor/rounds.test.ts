import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { Rounds } from './rounds'

const change = (taskId: string): MonitorEvent => ({
  kind: 'task-status',
  connectionId: 'c1',
  projectId: 'p1',
  at: '2025-01-01T09:00:00.000Z',
  taskId,
  taskName: `Task ${taskId}`,
  from: 'in_progress',
  to: 'completed'
})

const open = { inFlight: 1, maxMs: 5_000, force: false }
const settled = { inFlight: 0, maxMs: 5_000, force: false }

describe('Rounds', () => {
  it('reports nothing when nothing changed, even with no poll in flight', () => {
    const rounds = new Rounds()
    rounds.add([], false, 0)
    rounds.add([], true, 0)
    expect(rounds.close(10_000, settled)).toEqual([])
  })

  it('holds a round while a poll is in flight, and reports it once none is', () => {
    const rounds = new Rounds()
    rounds.add([change('a')], false, 1_000)
    expect(rounds.close(1_000, open)).toEqual([])
    rounds.add([change('b')], false, 2_000)
    expect(rounds.close(2_000, settled)).toEqual([{ events: [change('a'), change('b')], away: false }])
    // Reported once.
    expect(rounds.close(2_000, settled)).toEqual([])
  })

  it('reports a round that has gone on for maxMs from its first change, polls in flight or not', () => {
    const rounds = new Rounds()
    rounds.add([change('a')], false, 1_000)
    rounds.add([change('b')], false, 4_000)
    expect(rounds.close(5_999, open)).toEqual([])
    expect(rounds.close(6_000, open)).toEqual([{ events: [change('a'), change('b')], away: false }])
    // The next round is timed from its own first change.
    rounds.add([change('c')], false, 7_000)
    expect(rounds.close(11_999, open)).toEqual([])
    expect(rounds.close(12_000, open)).toHaveLength(1)
  })

  it("a poll that found nothing new does not start the round's time", () => {
    const rounds = new Rounds()
    rounds.add([], false, 0)
    rounds.add([change('a')], false, 4_000)
    expect(rounds.close(5_000, open)).toEqual([])
    expect(rounds.close(9_000, open)).toHaveLength(1)
  })

  it('reports at once when forced', () => {
    const rounds = new Rounds()
    rounds.add([change('a')], false, 1_000)
    expect(rounds.close(1_000, { ...open, force: true })).toEqual([{ events: [change('a')], away: false }])
  })

  it('reports the changes from while the app was closed apart, and first', () => {
    const rounds = new Rounds()
    rounds.add([change('live')], false, 1_000)
    rounds.add([change('away')], true, 1_000)
    expect(rounds.close(1_000, settled)).toEqual([
      { events: [change('away')], away: true },
      { events: [change('live')], away: false }
    ])
  })

  it('a round of away changes only reports no empty live one', () => {
    const rounds = new Rounds()
    rounds.add([change('away')], true, 1_000)
    expect(rounds.close(1_000, settled)).toEqual([{ events: [change('away')], away: true }])
    rounds.add([change('live')], false, 2_000)
    expect(rounds.close(2_000, settled)).toEqual([{ events: [change('live')], away: false }])
  })
})
