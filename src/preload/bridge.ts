// One function per invoke channel, each invoking only its own: the page never gets ipcRenderer, the event object or a
// way to name an arbitrary channel.
import type { Bridge, EventChannel, EventContract } from '../shared/ipc'
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../shared/ipc'

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

type Invokers = Omit<Bridge, 'on'>

export function createBridge(ipc: IpcRendererLike): Bridge {
  const invokers = {} as Record<string, (request?: unknown) => Promise<unknown>>
  for (const channel of INVOKE_CHANNELS) {
    // Exactly one argument crosses, whatever the page passes.
    invokers[channel] = (request?: unknown) => ipc.invoke(channel, request)
  }
  const bridge = {
    // INVOKE_CHANNELS lists every channel of the contract (checked in shared/ipc.ts), so this
    // object has one function per channel; the cast only names that.
    ...(invokers as unknown as Invokers),
    on<E extends EventChannel>(channel: E, listener: (payload: EventContract[E]) => void): () => void {
      if (!(EVENT_CHANNELS as readonly string[]).includes(channel)) {
        throw new Error(`agentTray.on: unknown event channel "${String(channel)}"`)
      }
      if (typeof listener !== 'function') throw new Error('agentTray.on: the listener must be a function')
      const wrapped = (_event: unknown, payload: unknown): void => listener(payload as EventContract[E])
      ipc.on(channel, wrapped)
      let subscribed = true
      return () => {
        if (!subscribed) return
        subscribed = false
        ipc.removeListener(channel, wrapped)
      }
    }
  } satisfies Bridge
  return Object.freeze(bridge)
}
