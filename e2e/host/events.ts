// The host's event transport: Server-Sent Events to every open page, in the contract's shape.
import type { ServerResponse } from 'node:http'
import type { EventChannel } from '../../src/shared/ipc'

export interface EventHub {
  broadcast(channel: EventChannel, payload: unknown): void
  /** Keeps a response open as an event stream until the request closes. */
  add(res: ServerResponse, onClose: (listener: () => void) => void): void
  closeAll(): void
}

export function createEventHub(): EventHub {
  const streams = new Set<ServerResponse>()
  return {
    broadcast(channel, payload) {
      const frame = `data: ${JSON.stringify({ channel, payload })}\n\n`
      for (const res of streams) res.write(frame)
    },
    add(res, onClose) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive'
      })
      res.write(': connected\n\n')
      streams.add(res)
      onClose(() => streams.delete(res))
    },
    closeAll() {
      for (const res of streams) res.end()
      streams.clear()
    }
  }
}
