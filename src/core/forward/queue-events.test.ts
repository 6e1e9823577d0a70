import { describe, expect, it } from 'vitest'
import { DEFAULT_FORWARD_EVENTS, type ForwardTarget } from '../../shared/forward-target'
import type { ForwardEvent } from './event'
import { createForwarder } from './queue-events'
import { agentEnded, agentWaits, NAMES, taskEnded } from './test-events'

const target = (id: string, over: Partial<ForwardTarget> = {}): ForwardTarget => ({
  id,
  name: id,
  kind: 'webhook',
  host: 'h',
  on: ['failed'],
  when: 'away',
  paused: false,
  quietHours: false,
  ...over
})

function setup(
  targets: ForwardTarget[],
  extra: { mutedProject?: boolean; mutedAccount?: boolean } = {},
  moment = { away: true, quiet: false }
) {
  const queued: Array<{ event: ForwardEvent; ids: readonly string[] }> = []
  const forward = createForwarder({
    outbox: { enqueue: (event, ids) => queued.push({ event, ids }) },
    settings: () => ({
      forwarding: { targets },
      watched: { c1: [{ projectId: 'p1', muted: extra.mutedProject === true } as never] },
      connectionNotifications: extra.mutedAccount
        ? { c1: { muted: true, pausedUntil: null } }
        : ({} as Record<string, never>)
    }),
    names: NAMES,
    moment: () => moment,
    now: () => 0
  })
  return { forward, queued }
}

describe('the forwarder', () => {
  it('queues a failure for the targets that want it now', () => {
    const { forward, queued } = setup([
      target('a'),
      target('b', { on: ['completed'] }),
      target('c', { when: 'always' })
    ])
    forward('c1', [taskEnded('t1', 'failed'), taskEnded('t2', 'completed')])
    expect(queued.map((q) => [q.event.task?.id, q.ids])).toEqual([
      ['t1', ['a', 'c']],
      ['t2', ['b']]
    ])
  })

  it('muted projects and muted accounts stay muted', () => {
    for (const extra of [{ mutedProject: true }, { mutedAccount: true }]) {
      const { forward, queued } = setup([target('a')], extra)
      forward('c1', [taskEnded('t1', 'failed')])
      expect(queued, JSON.stringify(extra)).toEqual([])
    }
  })

  it('while the user is at the desk, only `always` targets', () => {
    const { forward, queued } = setup([target('a'), target('c', { when: 'always' })], {}, { away: false, quiet: false })
    forward('c1', [taskEnded('t1', 'failed')])
    expect(queued.map((q) => q.ids)).toEqual([['c']])
  })
})

describe('the forwarder, what it leaves alone', () => {
  it('no targets: nothing is read of the moment, nothing queued', () => {
    let asked = 0
    const forward = createForwarder({
      outbox: { enqueue: () => expect.fail('queued') },
      settings: () => ({ forwarding: { targets: [] }, watched: {}, connectionNotifications: {} }),
      names: NAMES,
      moment: () => (asked++, { away: true, quiet: false }),
      now: () => 0
    })
    forward('c1', [taskEnded('t1')])
    expect(asked).toBe(0)
  })

  it('an event not forwarded (a start) and one no target wants are not queued; the time is the clock now', () => {
    const { forward, queued } = setup([target('a')])
    const started = { ...taskEnded('t1'), from: 'todo', to: 'in_progress' }
    forward('c1', [started as never, taskEnded('t2', 'completed'), taskEnded('t3', 'failed')])
    expect(queued.map((q) => [q.event.task?.id, q.ids, q.event.at])).toEqual([
      ['t3', ['a'], '1970-01-01T00:00:00.000Z']
    ])
  })
})

describe("another service's task waiting for you", () => {
  it('goes to the targets that take waiting (on by default), not to one without it, nor from a muted account', () => {
    const targets = [target('new', { on: [...DEFAULT_FORWARD_EVENTS] }), target('only-failed')]
    const { forward, queued } = setup(targets)
    forward('c1', [agentWaits(), agentEnded('failed')])
    expect(queued.map((q) => [q.event.kind, q.ids])).toEqual([
      ['waiting', ['new']],
      ['failed', ['new', 'only-failed']]
    ])
    const muted = setup(targets, { mutedAccount: true })
    muted.forward('c1', [agentWaits()])
    expect(muted.queued).toEqual([])
  })
})
