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
    const events = [...text.matchAll(/id: (\d+)\nevent: (\w+)/g)].map((m) => `${m[1]} ${m[2]}`)
    expect(events.slice(0, 4)).toEqual(['1 status', '2 status', '3 tool_call', '4 thinking'])
    expect(events.at(-1)).toMatch(/^\d+ done$/)
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
    expect(await stream.until('"callId":"c1"')).not.toContain(': heartbeat')
    fake.control.advance(15_000)
    expect(await stream.until(': heartbeat')).toContain(': heartbeat')
    await stream.close()
  })
})
