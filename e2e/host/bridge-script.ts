// The browser side of the test transport: `window.agentTray` with the same shape as the
// preload's Bridge, over the host's HTTP invoke route and its Server-Sent Events stream.
import { INVOKE_CHANNELS } from '../../src/shared/ipc'

export function bridgeScript(): string {
  return `// Agent Tray test host bridge: stands in for the Electron preload.
(() => {
  'use strict'
  const channels = ${JSON.stringify(INVOKE_CHANNELS)}
  const listeners = new Map()
  let resolveReady
  const ready = new Promise((resolve) => { resolveReady = resolve })
  const source = new EventSource('/__ipc/events')
  source.addEventListener('open', () => resolveReady())
  source.addEventListener('message', (message) => {
    let event
    try { event = JSON.parse(message.data) } catch { return }
    const set = listeners.get(event.channel)
    if (!set) return
    for (const listener of [...set]) {
      try { listener(event.payload) } catch (error) { console.error('agentTray listener failed', error) }
    }
  })
  async function invoke(channel, request) {
    try {
      const response = await fetch('/__ipc/invoke/' + encodeURIComponent(channel), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: request === undefined ? '' : JSON.stringify(request)
      })
      return await response.json()
    } catch (error) {
      return { ok: false, error: { kind: 'internal', message: 'The test host did not answer.' } }
    }
  }
  const bridge = {}
  for (const channel of channels) {
    bridge[channel] = (request) => invoke(channel, request)
  }
  bridge.on = (channel, listener) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function')
    let set = listeners.get(channel)
    if (!set) { set = new Set(); listeners.set(channel, set) }
    set.add(listener)
    return () => { set.delete(listener) }
  }
  Object.defineProperty(window, 'agentTray', { value: Object.freeze(bridge), enumerable: true })
  // For tests only: resolves once the event stream is connected.
  Object.defineProperty(window, '__agentTrayHost', { value: Object.freeze({ ready }) })
})()
`
}
