import { describe, expect, it } from 'vitest'
import type { EventChannel, EventContract, Handlers, InvokeChannel } from '../../shared/ipc'
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../shared/ipc'
import { Emitter } from '../util/emitter'
import { dispatch } from './dispatch'
import type { FrameLike, InvokeEventLike, IpcMainLike } from './ipc'
import { forwardEvents, registerIpcHandlers } from './ipc'

type Listener = Parameters<IpcMainLike['handle']>[1]

// Stands in for Electron's ipcMain, which cannot run here.
function fakeIpcMain(): IpcMainLike & { handlers: Map<string, Listener> } {
  const handlers = new Map<string, Listener>()
  return {
    handlers,
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, listener)
    },
    removeHandler(channel) {
      handlers.delete(channel)
    }
  }
}

function recordingHandlers(calls: { channel: string; request: unknown }[]): Handlers {
  const entries = INVOKE_CHANNELS.map((channel) => [
    channel,
    async (request: unknown) => {
      calls.push({ channel, request })
      return `${channel} done`
    }
  ])
  return Object.fromEntries(entries) as unknown as Handlers
}

const ourFrame: FrameLike = { url: 'app://agent-tray/index.html', processId: 3, routingId: 1 }

function setup() {
  const ipcMain = fakeIpcMain()
  const calls: { channel: string; request: unknown }[] = []
  const logs: string[] = []
  const handlers = recordingHandlers(calls)
  const unregister = registerIpcHandlers({
    ipcMain,
    dispatch: (channel: InvokeChannel, raw: unknown) => dispatch(handlers, channel, raw),
    // main's check (src/main/sender.ts, tested there) stands in as: exactly our frame.
    isTrusted: (frame) =>
      frame !== null &&
      frame.processId === ourFrame.processId &&
      frame.routingId === ourFrame.routingId &&
      frame.url === ourFrame.url,
    log: (m) => logs.push(m)
  })
  const invoke = (channel: string, event: InvokeEventLike, ...args: unknown[]) => {
    const listener = ipcMain.handlers.get(channel)
    if (!listener) throw new Error(`${channel} not registered`)
    return listener(event, ...args)
  }
  return { ipcMain, calls, logs, unregister, invoke }
}

describe('registerIpcHandlers', () => {
  it('registers exactly one handler per invoke channel and removes them all', () => {
    const { ipcMain, unregister } = setup()
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort())
    unregister()
    expect(ipcMain.handlers.size).toBe(0)
  })

  it('passes a trusted request through validation to its handler', async () => {
    const { invoke, calls } = setup()
    expect(await invoke('app:get-state', { senderFrame: { ...ourFrame } })).toEqual({
      ok: true,
      value: 'app:get-state done'
    })
    expect(await invoke('task:focus', { senderFrame: ourFrame }, { taskId: 't1' })).toEqual({
      ok: true,
      value: 'task:focus done'
    })
    expect(calls).toEqual([
      { channel: 'app:get-state', request: undefined },
      { channel: 'task:focus', request: { taskId: 't1' } }
    ])
  })

  it('refuses foreign frames before any handler runs, and logs no arguments', async () => {
    const { invoke, calls, logs } = setup()
    const secret = {
      connection: { name: 'x', baseUrl: 'https://api.example.com', publishingDomain: '' },
      apiKey: 'sk-secret'
    }
    for (const senderFrame of [
      { ...ourFrame, routingId: 9 },
      { ...ourFrame, url: 'https://evil.example/' },
      { ...ourFrame, url: 'about:blank' },
      { ...ourFrame, url: 'file:///app/out/renderer/index.html' },
      null
    ]) {
      const r = await invoke('connection:save', { senderFrame }, secret)
      expect(r).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
    }
    expect(calls).toEqual([])
    expect(logs).toHaveLength(5)
    expect(logs.join('\n')).not.toContain('sk-secret')
    expect(logs[1]).toContain('https://evil.example')
  })

  it('lets dispatch reject a bad request from our own window', async () => {
    const { invoke, calls } = setup()
    const r = await invoke('task:focus', { senderFrame: ourFrame }, { taskId: 42 })
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_argument' } })
    expect(calls).toEqual([])
  })

  it('turns a throwing dispatch into an internal failure without its text', async () => {
    const ipcMain = fakeIpcMain()
    const logs: string[] = []
    registerIpcHandlers({
      ipcMain,
      dispatch: async () => {
        throw new Error('key sk-secret leaked')
      },
      isTrusted: () => true,
      log: (m) => logs.push(m)
    })
    const r = await ipcMain.handlers.get('monitor:poll-now')!({ senderFrame: ourFrame })
    expect(r).toEqual({ ok: false, error: { kind: 'internal', message: 'Something went wrong in the app.' } })
    expect(logs.join('')).not.toContain('sk-secret')
  })
})

describe('forwardEvents', () => {
  it('sends every event channel to the window, in order, until unsubscribed', () => {
    const source = new Emitter<EventContract>()
    const sent: [EventChannel, unknown][] = []
    const off = forwardEvents(
      { on: (channel, listener) => source.on(channel, listener) },
      { send: (channel, payload) => sent.push([channel, payload]) }
    )
    source.emit('navigate:task', { projectId: 'p', taskId: 't' })
    source.emit('navigate:settings', {})
    expect(sent).toEqual([
      ['navigate:task', { projectId: 'p', taskId: 't' }],
      ['navigate:settings', {}]
    ])
    sent.length = 0
    for (const channel of EVENT_CHANNELS) source.emit(channel, { channel } as never)
    expect(sent.map(([channel]) => channel)).toEqual([...EVENT_CHANNELS])
    off()
    source.emit('app:state', {} as never)
    expect(sent).toHaveLength(EVENT_CHANNELS.length)
  })
})
