// The host's stand-in for Electron's ipcMain. The app's composition registers its handlers here
// (core/app/ipc.ts) exactly as it does in the app, main's sender check included; each HTTP invoke then calls the registered
// listener with an event whose sender frame carries the request's Origin as its URL. The Origin,
// not the Referer: a browser sends it with every POST and no page can change it.
import type { FrameLike, InvokeEventLike, IpcMainLike } from '../../src/core/app/ipc'

/** The one "window" of the host: every HTTP caller claims to be its main frame, so only the URL decides. */
const HOST_FRAME = { processId: 1, routingId: 1 } as const

type Listener = Parameters<IpcMainLike['handle']>[1]

export interface HttpIpcMain extends IpcMainLike {
  /** Calls the channel's handler as Electron would; undefined when none is registered. */
  invoke(channel: string, origin: string | undefined, request: unknown): Promise<unknown> | undefined
}

export function createHttpIpcMain(): HttpIpcMain {
  const listeners = new Map<string, Listener>()
  return {
    handle(channel, listener) {
      // Electron throws on a second handler for a channel; so do we.
      if (listeners.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
      listeners.set(channel, listener)
    },
    removeHandler(channel) {
      listeners.delete(channel)
    },
    invoke(channel, origin, request) {
      const listener = listeners.get(channel)
      if (!listener) return undefined
      const event: InvokeEventLike = { senderFrame: senderFrame(origin) }
      return listener(event, request)
    }
  }
}

/** The frame a request claims to come from; without an Origin header, an unknown page. */
export function senderFrame(origin: string | undefined): FrameLike {
  return { url: origin ?? '', ...HOST_FRAME }
}

/** The host's own page, as the sender check's list of our main frames. */
export function hostMainFrame(hostOrigin: string): FrameLike {
  return { url: `${hostOrigin}/`, ...HOST_FRAME }
}
