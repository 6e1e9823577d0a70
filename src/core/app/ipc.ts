// One handler per invoke channel: check the sender, then hand the raw request to dispatch, which validates it. Takes
// an ipcMain-like object so the e2e host runs this same registration.
import type { EventChannel, EventContract, InvokeChannel, IpcResult } from '../../shared/ipc'
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../shared/ipc'

/** The parts of Electron's WebFrameMain that identify a frame (who sent an IPC message). */
export interface FrameLike {
  url: string
  processId: number
  routingId: number
}

export interface InvokeEventLike {
  senderFrame: FrameLike | null
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void
  removeHandler(channel: string): void
}

export type Dispatch = (channel: InvokeChannel, rawRequest: unknown) => Promise<IpcResult<unknown>>

export interface IpcDeps {
  ipcMain: IpcMainLike
  dispatch: Dispatch
  /** The sender check (isTrustedFrame against our window, bound by the caller). */
  isTrusted: (frame: FrameLike | null) => boolean
  log: (message: string) => void
}

/** Registers every channel of INVOKE_CHANNELS; returns a function that removes them. */
export function registerIpcHandlers(deps: IpcDeps): () => void {
  for (const channel of INVOKE_CHANNELS) {
    deps.ipcMain.handle(channel, async (event, ...args) => {
      if (!deps.isTrusted(event.senderFrame)) {
        // Only the URL: never the arguments, which may hold an API key.
        deps.log(`ipc: refused ${channel} from ${describeFrame(event.senderFrame)}`)
        return forbidden()
      }
      try {
        return await deps.dispatch(channel, args[0])
      } catch (err) {
        // dispatch returns failures itself; a throw is our bug, and its text may quote the request.
        deps.log(`ipc: ${channel} threw ${err instanceof Error ? err.name : typeof err}`)
        return {
          ok: false,
          error: { kind: 'internal', message: 'Something went wrong in the app.' }
        } satisfies IpcResult<never>
      }
    })
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) deps.ipcMain.removeHandler(channel)
  }
}

function forbidden(): IpcResult<never> {
  return { ok: false, error: { kind: 'forbidden', message: 'This window may not call the app.' } }
}

function describeFrame(frame: FrameLike | null): string {
  if (!frame) return 'a destroyed frame'
  try {
    return new URL(frame.url).origin
  } catch {
    return 'an unknown frame'
  }
}

/** The one way main sends an event to the window: typed by the contract. */
export interface EventSink {
  send<E extends EventChannel>(channel: E, payload: EventContract[E]): void
}

/** What the window's events come from: the controller. */
export interface EventSourceLike {
  on<E extends EventChannel>(channel: E, listener: (payload: EventContract[E]) => void): () => void
}

/** Sends every event channel of the contract from `source` to the window; returns the unsubscribe. */
export function forwardEvents(source: EventSourceLike, target: EventSink): () => void {
  const offs = EVENT_CHANNELS.map((channel) => source.on(channel, (payload) => target.send(channel, payload)))
  return () => {
    for (const off of offs) off()
  }
}
