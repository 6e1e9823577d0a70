// The SSE parser against the WHATWG "Parsing an event stream" rules it follows, fed whole and byte by byte.
import { describe, expect, it } from 'vitest'
import { createSseParser, type SseEvent } from './sse'

function parse(chunks: (string | Uint8Array)[], lastEventId = '') {
  const events: SseEvent[] = []
  const comments: string[] = []
  const retries: number[] = []
  const p = createSseParser(
    { onEvent: (e) => events.push(e), onComment: (c) => comments.push(c), onRetry: (r) => retries.push(r) },
    lastEventId
  )
  for (const c of chunks) p.feed(c)
  return { events, comments, retries, parser: p }
}

describe('the SSE parser', () => {
  it('reads event, data, id and dispatches at a blank line; data lines join with LF; one leading space dropped', () => {
    const { events } = parse(['id: 7\nevent: tool_call\ndata: {"a":\ndata:  1}\n\n'])
    expect(events).toEqual([{ id: '7', event: 'tool_call', data: '{"a":\n 1}' }])
  })

  it('gives "message" to an event without a type, keeps the last id across events, and ignores an id with NUL', () => {
    const { events } = parse(['id: 1\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n'])
    expect(events.map((e) => [e.id, e.event, e.data])).toEqual([
      ['1', 'message', 'a'],
      ['1', 'message', 'b'],
      ['1', 'message', 'c']
    ])
  })

  it('takes CRLF, LF and CR line ends, a CRLF split across chunks included, and drops one leading BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFFevent: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n')
    const whole = parse([bytes]).events
    const byByte = parse([...bytes].map((b) => new Uint8Array([b]))).events
    expect(whole.map((e) => [e.event, e.data])).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['message', '3']
    ])
    expect(byByte).toEqual(whole)
  })

  it('decodes a multi-byte character split across chunks', () => {
    const bytes = new TextEncoder().encode('data: é✓\n\n')
    expect(parse([bytes.slice(0, 7), bytes.slice(7)]).events[0]?.data).toBe('é✓')
  })

  it('reports comments (heartbeats) and digit-only retry, ignores unknown fields and a field with no colon', () => {
    const { events, comments, retries } = parse([': heartbeat\nretry: 1500\nretry: 1s\nfoo: bar\ndata\n\n'])
    expect(comments).toEqual(['heartbeat'])
    expect(retries).toEqual([1500])
    expect(events).toEqual([{ id: '', event: 'message', data: '' }])
  })

  it('dispatches nothing for a blank line without data, and drops an event cut off by the end of the stream', () => {
    const { events, parser } = parse(['event: x\n\ndata: half'])
    expect(events).toEqual([])
    parser.reset()
    parser.feed('data: whole\n\n')
    expect(events.map((e) => e.data)).toEqual(['whole'])
  })

  it('starts from the last event ID it is given and keeps it over a reset', () => {
    const { events, parser } = parse(['data: a\n\n'], '41')
    parser.reset()
    parser.feed('id: 42\ndata: b\n\ndata: c\n\n')
    expect(events.map((e) => e.id)).toEqual(['41', '42', '42'])
  })
})

describe('the SSE parser, at its edges', () => {
  it('drops one BOM at the start of text fed as a string, after empty chunks too, and again after a reset only', () => {
    const { events, parser } = parse(['', '\uFEFFevent: a\ndata: 1\n\n', '\uFEFFdata: 2\n\n'])
    expect(events.map((e) => [e.event, e.data])).toEqual([['a', '1']])
    parser.reset()
    parser.feed('\uFEFFevent: b\ndata: 3\n\n')
    expect(events.map((e) => [e.event, e.data])).toEqual([
      ['a', '1'],
      ['b', '3']
    ])
  })

  it('a value without a space after the colon is whole; only the first space of a comment goes', () => {
    const { events, comments } = parse([':a b\n:  two\ndata:x\n\n'])
    expect(events.map((e) => e.data)).toEqual(['x'])
    expect(comments).toEqual(['a b', ' two'])
  })

  it('dispatches once: blank lines after an event dispatch nothing more', () => {
    expect(parse(['data: a\n\n\n\n']).events).toHaveLength(1)
  })

  it('retry takes digits only and only as retry; handlers without comment or retry listeners are fine', () => {
    expect(parse(['foo: 5\nretry: x5\nretry: 5x\n\n']).retries).toEqual([])
    const events: SseEvent[] = []
    const bare = createSseParser({ onEvent: (e) => events.push(e) })
    bare.feed(': hi\nretry: 10\ndata: z\n\n')
    expect(events.map((e) => e.data)).toEqual(['z'])
  })

  it('a reset drops the pending data and type: what follows is its own event', () => {
    const { events, parser } = parse(['event: x\ndata: half\n'])
    parser.reset()
    parser.feed('data: y\n\n')
    expect(events).toEqual([{ id: '', event: 'message', data: 'y' }])
    const cut = parse(['data: half\n'])
    cut.parser.reset()
    cut.parser.feed('\n')
    expect(cut.events).toEqual([])
  })
})
