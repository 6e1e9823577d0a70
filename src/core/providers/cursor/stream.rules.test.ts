// The stream's rules one by one, with streams made in the test: how an open that fails or is refused ends or is
// tried again, what each event is told as, a tool call as a step, the pool's bound and its memory of runs left to
// polling, and the steps gathered by agent.
import { describe, expect, it } from 'vitest'
import { ServiceError } from '../../client/service-error'
import type { StreamResponse } from '../transport'
import {
  type FollowEnd,
  type Follower,
  followRun,
  LiveSteps,
  MAX_STREAMS,
  openRunStream,
  REOPEN_WAIT,
  type RunKey,
  type RunUpdate,
  StreamPool,
  type Timers,
  toolStep
} from './stream'

const body = (text: string, status = 200): StreamResponse => ({
  status,
  headers: {},
  text: async () => text,
  body: (async function* () {
    if (text !== '') yield new TextEncoder().encode(text)
  })()
})

/** Injected timers whose pending ones run when `fire` says: a reopen's wait is over once it has been told. */
function waitTimers() {
  const pending = new Map<number, () => void>()
  let next = 0
  const timers: Timers = {
    set(run) {
      pending.set(++next, run)
      return next
    },
    clear: (h) => pending.delete(h as number)
  }
  /** Runs the timers pending on the next turn (the wait's is set right after its reopen is told). */
  const fire = () =>
    setImmediate(() => {
      const due = [...pending.values()]
      pending.clear()
      due.forEach((run) => run())
    })
  return { timers, fire }
}

/** Follows streams answered in turn by `answers` (the last one repeated), with no reopen allowance unless given; each
 * reopen's wait (jitter at its top) ends as soon as it is told. */
function follow(answers: (() => Promise<StreamResponse> | StreamResponse)[], maxReopens = 0) {
  const updates: RunUpdate[] = []
  let opens = 0
  const { timers, fire } = waitTimers()
  const follower = followRun({
    maxReopens,
    timers,
    random: () => 1,
    async open() {
      const answer = answers[Math.min(opens, answers.length - 1)] as () => Promise<StreamResponse> | StreamResponse
      opens++
      return answer()
    },
    onUpdate(u) {
      updates.push(u)
      if (u.kind === 'reopening') fire()
    }
  })
  return { follower, updates, opens: () => opens }
}

describe('opening the stream', () => {
  it('tries again after a network failure or a timeout, and gives up on any other refusal', async () => {
    for (const kind of ['network', 'timeout'] as const) {
      const f = follow(
        [
          () => {
            throw new ServiceError(kind, 'down')
          },
          () => body('id: 1\nevent: done\ndata: {}\n\n')
        ],
        1
      )
      await expect(f.follower.ended).resolves.toEqual({ how: 'done' })
      expect(f.opens()).toBe(2)
    }
    const refused = new ServiceError('auth', 'no')
    const f = follow([() => Promise.reject(refused)], 3)
    await expect(f.follower.ended).resolves.toEqual({ how: 'failed', error: refused })
    expect(f.opens()).toBe(1)
  })

  it('an error that is no ServiceError is a dropped connection too', async () => {
    const f = follow([() => Promise.reject(new Error('socket hang up')), () => body('event: done\ndata: {}\n\n')], 1)
    await expect(f.follower.ended).resolves.toEqual({ how: 'done' })
  })

  it('410 ends it for polling; 5xx and 429 are tried again; any other status fails with its words', async () => {
    await expect(follow([() => body('{"error":{"code":"stream_expired"}}', 410)]).follower.ended).resolves.toEqual({
      how: 'expired'
    })
    for (const status of [500, 503, 429]) {
      const f = follow([() => body('busy', status), () => body('event: done\ndata: {}\n\n')], 1)
      await expect(f.follower.ended).resolves.toEqual({ how: 'done' })
    }
    const end = (await follow([() => body('{"error":{"code":"invalid_last_event_id"}}', 400)]).follower
      .ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(end.how).toBe('failed')
    expect(end.error).toMatchObject({ kind: 'bad_request', status: 400 })
    expect(end.error.message).toBe(
      'Cursor refused the run stream (HTTP 400). {"error":{"code":"invalid_last_event_id"}}'
    )
    const bare = (await follow([() => body('', 404)]).follower.ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(bare.error.message).toBe('Cursor refused the run stream (HTTP 404).')
  })

  it('gives up with words once the reopens allowed in a row bring nothing', async () => {
    const f = follow([() => body('')], 1)
    const end = (await f.follower.ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(end.error).toMatchObject({ kind: 'network', message: 'The Cursor run stream kept dropping.' })
    expect(f.opens()).toBe(2)
    // Only the reopen that happens is told, with its wait; the one past the allowance is not.
    expect(f.updates).toEqual([{ kind: 'reopening', lastEventId: null, stalled: false, waitMs: REOPEN_WAIT.firstMs }])
  })

  it('a stream that brings an event resets the count: reopens in a row, not in all', async () => {
    let opens = 0
    const { timers, fire } = waitTimers()
    const follower: Follower = followRun({
      maxReopens: 1,
      timers,
      async open() {
        opens++
        // Each event-bearing open is followed by an empty one: never two empty in a row, so only stop ends it.
        if (opens === 8) follower.stop()
        return body(opens % 2 === 1 ? `id: ${opens}\nevent: assistant\ndata: {}\n\n` : '')
      },
      onUpdate: (u) => void (u.kind === 'reopening' && fire())
    })
    await expect(follower.ended).resolves.toEqual({ how: 'stopped' })
    expect(opens).toBe(8)
  })

  it('stopped while opening, it ends stopped', async () => {
    let release!: () => void
    const f = follow([
      () =>
        new Promise<StreamResponse>((_, reject) => {
          release = () => reject(new ServiceError('network', 'aborted'))
        })
    ])
    await new Promise((r) => setImmediate(r))
    f.follower.stop()
    release()
    await expect(f.follower.ended).resolves.toEqual({ how: 'stopped' })
  })
})

describe('what each event is told as', () => {
  it('status, result (its text, else its result), error, other events by name; nothing after done', async () => {
    const f = follow([
      () =>
        body(
          [
            'id: 1\nevent: status\ndata: {"status":"RUNNING"}',
            'id: 2\nevent: status\ndata: {}',
            'id: 3\nevent: thinking\ndata: {"text":"hm"}',
            'id: 4\nevent: result\ndata: {"result":"old shape"}',
            'id: 5\nevent: result\ndata: {}',
            'id: 6\nevent: error\ndata: {"code":"stream_unavailable","message":"later"}',
            'id: 7\nevent: error\ndata: {}',
            'id: 8\nevent: done\ndata: {}',
            'id: 9\nevent: assistant\ndata: {}'
          ].join('\n\n') + '\n\n'
        )
    ])
    await expect(f.follower.ended).resolves.toEqual({ how: 'done' })
    expect(f.updates).toEqual([
      { kind: 'status', word: 'RUNNING' },
      { kind: 'status', word: '' },
      { kind: 'other', event: 'thinking' },
      { kind: 'result', text: 'old shape' },
      { kind: 'result', text: '' },
      { kind: 'error', code: 'stream_unavailable', message: 'later' },
      { kind: 'error', code: 'error', message: '' }
    ])
    expect(f.follower.lastEventId()).toBe('8')
  })

  it.each(['unauthorized', 'agent_not_found', 'run_not_found', 'plan_required', 'role_forbidden'])(
    'an error event %s ends the stream with its code',
    async (code) => {
      const end = (await follow([() => body(`event: error\ndata: {"code":"${code}"}\n\n`)], 3).follower
        .ended) as Extract<FollowEnd, { how: 'failed' }>
      expect(end.error.message).toBe(`The Cursor run stream ended: ${code}.`)
    }
  )

  it('data that is not a JSON object reads as empty', async () => {
    const f = follow([
      () => body('id: 1\nevent: status\ndata: [1]\n\nid: 2\nevent: result\ndata: nope\n\nevent: done\ndata: {}\n\n')
    ])
    await f.follower.ended
    expect(f.updates).toEqual([
      { kind: 'status', word: '' },
      { kind: 'result', text: '' }
    ])
  })
})

describe('a tool call as a step', () => {
  const step = (data: unknown, id = '9') => toolStep({ id, event: 'tool_call', data: JSON.stringify(data) })

  it("reads the docs' envelope: callId, name, status, args", () => {
    expect(step({ callId: 'c1', name: 'grep', status: 'running', args: { q: 'x' } })).toEqual({
      id: 'c1',
      kind: 'tool_call',
      title: 'grep',
      detail: '{"q":"x"}',
      at: null,
      status: null,
      serviceStatus: 'running'
    })
  })

  it('falls back to other names for the tool, its input and its id, and to the event id', () => {
    expect(step({ id: 'i1', toolName: 'a', arguments: 'raw', timestamp: 't' })).toMatchObject({
      id: 'i1',
      title: 'a',
      detail: 'raw',
      at: 't'
    })
    expect(step({ tool: 'b', input: { n: 1 }, createdAt: 'c' })).toMatchObject({
      id: '9',
      title: 'b',
      detail: '{"n":1}',
      at: 'c'
    })
    expect(step({ args: 3 }, '')).toMatchObject({
      id: 'Tool call',
      title: 'Tool call',
      detail: null,
      serviceStatus: null
    })
  })

  it('cuts a long input at 2,000 characters', () => {
    expect(step({ name: 'w', args: 'x'.repeat(2_500) }).detail).toHaveLength(2_000)
  })
})

describe('the stream pool', () => {
  function pool(max?: number) {
    const ends = new Map<string, (end: FollowEnd) => void>()
    const stopped: string[] = []
    const told: string[] = []
    const p = new StreamPool({
      ...(max !== undefined ? { max } : {}),
      start(run: RunKey): Follower {
        return {
          ended: new Promise<FollowEnd>((resolve) => ends.set(run.runId, resolve)),
          lastEventId: () => null,
          stop: () => stopped.push(run.runId)
        }
      },
      onEnd: (run, end) => told.push(`${run.runId} ${end.how}`)
    })
    return { p, ends, stopped, told }
  }
  const runs = (...ids: string[]) => ids.map((runId) => ({ agentId: 'a', runId }))
  const settle = () => new Promise((r) => setImmediate(r))

  it(`holds ${MAX_STREAMS} by default`, () => {
    const { p } = pool()
    expect(p.max).toBe(MAX_STREAMS)
    expect(p.want(runs('1', '2', '3', '4')).streamed).toEqual(['a/1', 'a/2', 'a/3'])
  })

  it('a run whose stream was done may be streamed again; one that expired or failed stays polled', async () => {
    const { p, ends, told } = pool(3)
    p.want(runs('1', '2', '3'))
    ends.get('1')?.({ how: 'done' })
    ends.get('2')?.({ how: 'failed', error: new Error('x') })
    await settle()
    expect(told).toEqual(['1 done', '2 failed'])
    expect(p.want(runs('1', '2', '3'))).toEqual({ streamed: ['a/3', 'a/1'], polled: ['a/2'] })
  })

  it('a stream stopped because its run is no longer wanted is forgotten quietly, and close stops the rest', async () => {
    const { p, ends, stopped, told } = pool(2)
    p.want(runs('1', '2'))
    p.want(runs('2'))
    ends.get('1')?.({ how: 'stopped' })
    await settle()
    expect(told).toEqual([])
    expect(p.streaming()).toEqual(['a/2'])
    p.close()
    expect(stopped).toEqual(['1', '2'])
    expect(p.streaming()).toEqual([])
  })
})

describe('live steps', () => {
  it('keeps each agent’s steps in the order first seen, a step told again in place; forgets an agent', () => {
    const live = new LiveSteps()
    const s = (id: string, title: string) =>
      toolStep({ id: '', event: 'tool_call', data: JSON.stringify({ callId: id, name: title }) })
    expect(live.steps('a')).toBeUndefined()
    live.add('a', s('1', 'read'))
    live.add('a', s('2', 'edit'))
    live.add('a', s('1', 'read again'))
    live.add('b', s('1', 'other'))
    expect(live.steps('a')?.map((x) => x.title)).toEqual(['read again', 'edit'])
    live.forget('a')
    expect(live.steps('a')).toBeUndefined()
    expect(live.steps('b')).toHaveLength(1)
  })
})

describe('stopping and the heartbeat watch', () => {
  it('stopped while a refused answer is read, or while an open is refused for good, it ends stopped', async () => {
    const follower: Follower = followRun({
      maxReopens: 3,
      async open() {
        return {
          ...body('', 503),
          text: async () => {
            follower.stop()
            return ''
          }
        }
      },
      onUpdate: () => {}
    })
    await expect(follower.ended).resolves.toEqual({ how: 'stopped' })

    let reject!: (e: Error) => void
    const f = follow([() => new Promise<StreamResponse>((_, r) => (reject = r))], 3)
    await new Promise((r) => setImmediate(r))
    f.follower.stop()
    reject(new ServiceError('auth', 'refused'))
    await expect(f.follower.ended).resolves.toEqual({ how: 'stopped' })
  })

  it('stopped while reading, it tells no reopening', async () => {
    const updates: RunUpdate[] = []
    const follower = followRun({
      async open(_last, signal) {
        return {
          status: 200,
          headers: {},
          text: async () => '',
          body: (async function* () {
            yield new TextEncoder().encode('id: 1\nevent: assistant\ndata: {}\n\n')
            await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))
          })()
        }
      },
      onUpdate(u) {
        updates.push(u)
        if (u.kind === 'other') queueMicrotask(() => follower.stop())
      }
    })
    await expect(follower.ended).resolves.toEqual({ how: 'stopped' })
    expect(updates).toEqual([{ kind: 'other', event: 'assistant' }])
  })

  it('network failures and 5xx in a row are bounded too', async () => {
    const failing = follow([() => Promise.reject(new ServiceError('network', 'down'))], 2)
    await expect(failing.follower.ended).resolves.toMatchObject({ how: 'failed' })
    expect(failing.opens()).toBe(3)
    const busy = follow([() => body('', 503)], 2)
    await expect(busy.follower.ended).resolves.toMatchObject({ how: 'failed' })
    expect(busy.opens()).toBe(3)
  })

  it("a refusal whose body cannot be read is worded without it; 300 is no stream; a fatal event's error is bad_request", async () => {
    const unreadable = (await follow([() => ({ ...body('', 400), text: () => Promise.reject(new Error('reset')) })])
      .follower.ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(unreadable.error.message).toBe('Cursor refused the run stream (HTTP 400).')
    const multiple = (await follow([() => body('', 300)]).follower.ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(multiple.error.message).toBe('Cursor refused the run stream (HTTP 300).')
    const fatal = (await follow([() => body('event: error\ndata: {"code":"unauthorized"}\n\n')]).follower
      .ended) as Extract<FollowEnd, { how: 'failed' }>
    expect(fatal.error).toMatchObject({ kind: 'bad_request' })
  })

  it('holds one heartbeat watch at a time while reading, and none once the stream has ended', async () => {
    const pending = new Set<number>()
    let next = 0
    const timers: Timers = {
      set() {
        pending.add(++next)
        return next
      },
      clear: (h) => pending.delete(h as number)
    }
    const seen: number[] = []
    const follower = followRun({
      timers,
      async open() {
        return {
          status: 200,
          headers: {},
          text: async () => '',
          body: (async function* () {
            for (const n of [1, 2, 3]) {
              yield new TextEncoder().encode(`id: ${n}\nevent: assistant\ndata: {}\n\n`)
              seen.push(pending.size)
            }
            yield new TextEncoder().encode('event: done\ndata: {}\n\n')
          })()
        }
      },
      onUpdate: () => {}
    })
    await expect(follower.ended).resolves.toEqual({ how: 'done' })
    expect(seen).toEqual([1, 1, 1])
    expect(pending.size).toBe(0)
  })

  it('the stream path names a run and an agent, and refuses one that cannot be a path', () => {
    const transport = { open: () => Promise.reject(new Error('not here')) } as unknown as Parameters<
      typeof openRunStream
    >[0]
    expect(() => openRunStream(transport, '..', 'run-1')).toThrow('An agent id is required and cannot be "..".')
    expect(() => openRunStream(transport, 'bc-1', '')).toThrow('A run id is required and cannot be "".')
  })
})
