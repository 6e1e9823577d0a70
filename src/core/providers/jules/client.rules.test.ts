// The Jules client's edges over a loopback server: the words of what it cannot read or will not send, which answers
// count as answers, what it reports dropped, and that a closed client sends nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { failure } from '../../client/test-failure'
import type { DroppedRecord } from '../records'
import { json, startTestServer, type TestServer } from '../test-server'
import { createJulesClient, type JulesClient } from './client'

let server: TestServer
let client: JulesClient
let dropped: DroppedRecord[]

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  dropped = []
  server.received.length = 0
  client = createJulesClient({
    apiKey: 'AIzaSyTEST-rules',
    account: 'rules',
    baseUrl: `${server.url}/v1alpha`,
    onDropped: (d) => dropped.push(d)
  })
})
afterEach(() => client.close())

describe('Jules client', () => {
  it('what it cannot read is named: a list of sessions, a list of activities', async () => {
    server.handle((_req, res) => json(res, 200, 'nope'))
    expect((await failure(client.listSessions())).message).toContain('where a list of sessions was expected')
    expect((await failure(client.listActivities('s'))).message).toContain('where a list of activities was expected')
    server.handle((_req, res) => json(res, 200, { sessions: 1, activities: 2 }))
    expect((await failure(client.listSessions())).message).toBe(
      'The service sent a list of sessions we cannot read ("sessions" is not a list).'
    )
    expect((await failure(client.listActivities('s'))).message).toBe(
      'The service sent a list of activities we cannot read ("activities" is not a list).'
    )
  })

  it('a dropped session or activity is reported as such', async () => {
    server.handle((_req, res) => json(res, 200, { sessions: [{ state: 'QUEUED' }], activities: [{}] }))
    await client.listSessions()
    await client.listActivities('s')
    expect(dropped.map((d) => [d.resource, d.path])).toEqual([
      ['session', 'sessions[0].id'],
      ['activity', 'activities[0].id']
    ])
  })

  it('a session id is required to answer it', async () => {
    expect((await failure(client.approvePlan(''))).message).toBe('A session id is required and cannot be "".')
    expect(server.received).toHaveLength(0)
  })

  it('a 300 is not an answer', async () => {
    server.handle((_req, res) => json(res, 300, { sessions: [] }))
    const e = await failure(client.listSessions())
    expect([e.kind, e.status]).toEqual(['bad_request', 300])
  })

  it('a closed client sends nothing more', async () => {
    await client.close()
    expect((await failure(client.listSessions())).kind).toBe('network')
    expect(server.received).toHaveLength(0)
  })
})
