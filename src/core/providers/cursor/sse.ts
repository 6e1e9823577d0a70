// A server-sent events parser by the WHATWG HTML standard's "Parsing an event stream" (§9.2.6): UTF-8 with one leading
// BOM dropped, lines ended by CRLF, LF or CR (a CR at a chunk's end waits for its LF), comments, `event`, `data`
// (joined by LF), `id` (kept across events, ignored when it holds NUL) and `retry` (digits only); an event is
// dispatched at a blank line, and one cut off by the end of the stream is dropped. eventsource-parser is not installed.

export interface SseEvent {
  /** The last event ID as the stream left it (it carries over to events that set none). */
  id: string
  event: string
  data: string
}

export interface SseHandlers {
  onEvent(event: SseEvent): void
  onComment?(text: string): void
  onRetry?(ms: number): void
}

export interface SseParser {
  feed(chunk: Uint8Array | string): void
  /** A new connection: partial lines and the pending event are dropped; the last event ID is kept. */
  reset(): void
}

export function createSseParser(handlers: SseHandlers, lastEventId = ''): SseParser {
  let decoder = new TextDecoder('utf-8')
  let buffer = ''
  let started = false
  let data = ''
  let hasData = false
  let type = ''
  let id = lastEventId

  function dispatch(): void {
    const eventType = type
    type = ''
    if (!hasData) return
    const body = data.endsWith('\n') ? data.slice(0, -1) : data
    data = ''
    hasData = false
    handlers.onEvent({ id, event: eventType === '' ? 'message' : eventType, data: body })
  }

  function line(text: string): void {
    if (text === '') return dispatch()
    if (text.startsWith(':')) return handlers.onComment?.(text.slice(1).replace(/^ /, ''))
    const colon = text.indexOf(':')
    const field = colon === -1 ? text : text.slice(0, colon)
    let value = colon === -1 ? '' : text.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') type = value
    else if (field === 'data') {
      data += `${value}\n`
      hasData = true
    } else if (field === 'id') {
      if (!value.includes('\0')) id = value
    } else if (field === 'retry') {
      if (/^[0-9]+$/.test(value)) handlers.onRetry?.(Number(value))
    }
  }

  return {
    feed(chunk) {
      buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      if (!started && buffer.length > 0) {
        started = true
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1)
      }
      let start = 0
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i]
        if (c !== '\n' && c !== '\r') continue
        if (c === '\r' && i === buffer.length - 1) break
        line(buffer.slice(start, i))
        if (c === '\r' && buffer[i + 1] === '\n') i++
        start = i + 1
      }
      buffer = buffer.slice(start)
    },
    reset() {
      decoder = new TextDecoder('utf-8')
      buffer = ''
      started = false
      data = ''
      hasData = false
      type = ''
    }
  }
}
