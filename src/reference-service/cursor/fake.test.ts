// The Cursor fake's own controls for a bench or a test that drives a run: an event told now reaches the run's stream
// in order (before the script's beats still to come), over the control route too, and a stream quiet for the
// heartbeat period of the manual clock gets its heartbeat.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from './fake'

const KEY = 'key_cursor_fake_0123456789abcdef'
let fake: CursorFake
beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
})
afterEach(() => fake.close())

const auth = { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` }

/** A run's stream, read until what it names has arrived. */
async function openStream(agentId: string, runId: string) {
  const res = await fetch(`${fake.baseUrl}/v1/agents/${agentId}/runs/${runId}/stream`, { headers: auth })
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  return {
    async until(what: string): Promise<string> {
      while (!text.includes(what)) {
        const { value, done } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
      }
      return text
    },
    close: () => reader.cancel()
  }
}

describe('the Cursor fake driven by a bench', () => {
  it('tells an added event in order, before the beats of the script still to come', async () => {
    const { id } = fake.control.addTask({ title: 'Live', script: 'complete' })
    const runId = fake.control.latestRunId(id)
    fake.control.advance(2_000)
    fake.control.addEvent(runId, 'tool_call', { callId: 'added', name: 'read_file' })
    fake.control.advance(40_000)
    const stream = await openStream(id, runId)
    const text = await stream.until('event: done')
    await stream.close()
    const events = [...text.matchAll(/(?:id: (\S+)\n)?event: (\w+)/g)].map((m) => ({ id: m[1], event: m[2] }))
    // The id-less leading status, then the script's RUNNING, the added call, and the beats still to come.
    expect(events.slice(0, 4).map((e) => e.event)).toEqual(['status', 'status', 'tool_call', 'thinking'])
    expect(events[0]?.id).toBeUndefined()
    expect(events.at(-1)?.event).toBe('done')
    // Opaque ids as the script's (`<ms>-<n>`), each its own but `done`, which repeats the result's.
    const ids = events.slice(1, -1).map((e) => e.id)
    expect(ids.every((i) => /^\d+-\d+$/.test(i ?? ''))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(events.at(-1)?.id).toBe(events.at(-2)?.id)
    expect(text).toContain('"callId":"added"')
  })

  it('takes an event over its control route, and sends a heartbeat after 15 s of the manual clock', async () => {
    const { id } = fake.control.addTask({ title: 'Live', state: 'RUNNING' })
    const runId = fake.control.latestRunId(id)
    const res = await fetch(`${fake.url}/__control/runs/${runId}/event`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'tool_call', data: { callId: 'c1', name: 'edit_file' } })
    })
    expect(res.status).toBe(200)
    const stream = await openStream(id, runId)
    expect(await stream.until('"callId":"c1"')).not.toContain('event: heartbeat')
    fake.control.advance(15_000)
    expect(await stream.until('event: heartbeat')).toContain('event: heartbeat')
    await stream.close()
  })
})
