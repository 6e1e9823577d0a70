import { describe, expect, it } from 'vitest'
import { type Handlers, INVOKE_CHANNELS } from '../../shared/ipc'
import { ServiceError } from '../client/service-error'
import { invalidArgument } from './app-error'
import { dispatch } from './dispatch'

/** Handlers that record their calls and answer with `answer(channel, request)`. */
function recordingHandlers(answer: (channel: string, request: unknown) => Promise<unknown>) {
  const calls: [string, unknown][] = []
  const handlers = Object.fromEntries(
    INVOKE_CHANNELS.map((channel) => [
      channel,
      (request: unknown) => {
        calls.push([channel, request])
        return answer(channel, request)
      }
    ])
  ) as unknown as Handlers
  return { handlers, calls }
}

describe('dispatch', () => {
  it('calls the handler with the parsed request and wraps its value', async () => {
    const { handlers, calls } = recordingHandlers(async (_c, r) => ({ echoed: r }))
    const result = await dispatch(handlers, 'project:get', { projectId: 'p1' })
    expect(result).toEqual({ ok: true, value: { echoed: { projectId: 'p1' } } })
    expect(calls).toEqual([['project:get', { projectId: 'p1' }]])
  })

  it('passes the normalised request, not the raw one', async () => {
    const { handlers, calls } = recordingHandlers(async () => undefined)
    await dispatch(handlers, 'connection:save', {
      connection: { name: 'L', baseUrl: 'http://localhost:9/', publishingDomain: '' },
      apiKey: ' k '
    })
    expect(calls[0]?.[1]).toEqual({
      connection: { name: 'L', baseUrl: 'http://localhost:9', publishingDomain: '' },
      apiKey: 'k'
    })
  })

  it('passes undefined to a channel without a request', async () => {
    const { handlers, calls } = recordingHandlers(async () => 'state')
    expect(await dispatch(handlers, 'app:get-state', null)).toEqual({ ok: true, value: 'state' })
    expect(calls).toEqual([['app:get-state', undefined]])
  })

  it.each(['nope', 'toString', '__proto__', 'constructor', ''])('refuses the unknown channel %j', async (channel) => {
    const { handlers, calls } = recordingHandlers(async () => 1)
    const result = await dispatch(handlers, channel, {})
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.kind).toBe('invalid_argument')
      expect(result.error.message).toMatch(/Unknown channel/)
    }
    expect(calls).toEqual([])
  })

  it('refuses an invalid request with a message naming the field, without calling the handler', async () => {
    const { handlers, calls } = recordingHandlers(async () => 1)
    const result = await dispatch(handlers, 'monitor:pause-notifications', { minutes: 0 })
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'invalid_argument',
        message: 'Invalid request for monitor:pause-notifications: minutes: must be at least 1.'
      }
    })
    expect(calls).toEqual([])
  })

  it('refuses a cost range whose last day is before its first, saying so, without calling the handler', async () => {
    const { handlers, calls } = recordingHandlers(async () => 1)
    const result = await dispatch(handlers, 'costs:report', {
      grouping: 'day',
      stackBy: 'project',
      since: '2026-03-10',
      until: '2026-03-01'
    })
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'invalid_argument',
        message: 'Invalid request for costs:report: until: must not be before since (2026-03-10).'
      }
    })
    expect(calls).toEqual([])
  })

  it('never echoes a refused API key', async () => {
    const { handlers } = recordingHandlers(async () => 1)
    const key = `sk-${'x'.repeat(5000)}`
    const result = await dispatch(handlers, 'connection:save', {
      connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '' },
      apiKey: key
    })
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).not.toContain('sk-xxx')
  })

  it('maps a ServiceError to its info', async () => {
    const error = new ServiceError('not_found', 'Not found (HTTP 404): this project or task is gone.', { status: 404 })
    const { handlers } = recordingHandlers(async () => {
      throw error
    })
    expect(await dispatch(handlers, 'project:get', { projectId: 'p1' })).toEqual({
      ok: false,
      error: { kind: 'not_found', message: error.message, status: 404 }
    })
  })

  it('maps an AppError to its kind and message', async () => {
    const { handlers } = recordingHandlers(async () => {
      throw invalidArgument('No connection is active.')
    })
    expect(await dispatch(handlers, 'project:watch', { projectId: 'p1' })).toEqual({
      ok: false,
      error: { kind: 'invalid_argument', message: 'No connection is active.' }
    })
  })

  it('hides the details of anything else, and reports it to onInternalError', async () => {
    const seen: unknown[] = []
    const { handlers } = recordingHandlers(async () => {
      throw new Error('ENOENT /home/ann/.config/secret-path')
    })
    const result = await dispatch(handlers, 'settings:get', undefined, { onInternalError: (_c, e) => seen.push(e) })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.kind).toBe('internal')
      expect(result.error.message).not.toContain('ENOENT')
      expect(result.error.message).not.toContain('secret-path')
    }
    expect(seen).toHaveLength(1)
  })
})
