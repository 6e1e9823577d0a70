import { describe, expect, it } from 'vitest'
import type { EventChannel } from '../shared/ipc'
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../shared/ipc'
import type { IpcRendererLike } from './bridge'
import { createBridge } from './bridge'

type Listener = (event: unknown, ...args: unknown[]) => void

// Stands in for Electron's ipcRenderer, which cannot run here.
function fakeIpcRenderer() {
  const invoked: unknown[][] = []
  const listeners = new Map<string, Set<Listener>>()
  const ipc: IpcRendererLike = {
    async invoke(channel, ...args) {
      invoked.push([channel, ...args])
      return { ok: true, value: channel }
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set())
      listeners.get(channel)!.add(listener)
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener)
    }
  }
  const emit = (channel: string, payload: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'the IpcRendererEvent', ports: [] }, payload)
  }
  return { ipc, invoked, listeners, emit }
}

describe('createBridge', () => {
  it('has one function per invoke channel plus on, and nothing else', () => {
    const bridge = createBridge(fakeIpcRenderer().ipc)
    expect(Object.keys(bridge).sort()).toEqual([...INVOKE_CHANNELS, 'on'].sort())
    for (const key of Object.keys(bridge)) expect(typeof (bridge as Record<string, unknown>)[key]).toBe('function')
    expect(Object.isFrozen(bridge)).toBe(true)
  })

  it('invokes only its own channel with exactly one argument', async () => {
    const { ipc, invoked } = fakeIpcRenderer()
    const bridge = createBridge(ipc)
    expect(await bridge['project:get']({ projectId: 'p' })).toEqual({ ok: true, value: 'project:get' })
    await bridge['app:get-state']()
    const sneaky = bridge['task:focus'] as unknown as (...a: unknown[]) => Promise<unknown>
    await sneaky({ taskId: null }, 'extra', 'args')
    expect(invoked).toEqual([
      ['project:get', { projectId: 'p' }],
      ['app:get-state', undefined],
      ['task:focus', { taskId: null }]
    ])
  })

  it('delivers event payloads without the IPC event, and unsubscribes once', () => {
    const { ipc, emit, listeners } = fakeIpcRenderer()
    const bridge = createBridge(ipc)
    const got: unknown[][] = []
    const off = bridge.on('navigate:task', (...args) => got.push(args))
    emit('navigate:task', { projectId: 'p', taskId: 't' })
    expect(got).toEqual([[{ projectId: 'p', taskId: 't' }]])
    off()
    off()
    emit('navigate:task', { projectId: 'p', taskId: 'u' })
    expect(got).toHaveLength(1)
    expect(listeners.get('navigate:task')?.size).toBe(0)
  })

  it('refuses channels outside the event contract and non-function listeners', () => {
    const { ipc, listeners } = fakeIpcRenderer()
    const bridge = createBridge(ipc)
    expect(() => bridge.on('connection:save' as EventChannel, () => {})).toThrow(/unknown event channel/)
    expect(() => bridge.on('app:state', 'x' as never)).toThrow(/must be a function/)
    expect(listeners.size).toBe(0)
    for (const channel of EVENT_CHANNELS) bridge.on(channel, () => {})
    expect([...listeners.keys()].sort()).toEqual([...EVENT_CHANNELS].sort())
  })
})
