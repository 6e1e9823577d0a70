// The Devin adapter's words: its v3 and v1 status tables in full, what waits for you (a question, an action to allow,
// credits), ACUs in their own unit, PRs as links, messages as steps, and the documentation's own example bodies.
import { describe, expect, it } from 'vitest'
import {
  V1_GET_SESSION,
  V1_LIST_SESSIONS,
  V3_LIST_MESSAGES,
  V3_LIST_SESSIONS,
  V3_SELF
} from '../../../reference-service/devin/docs-examples'
import { USD } from '../../../shared/provider'
import { readList, readOne } from '../records'
import { apiOfKey } from './client'
import {
  ACU,
  DEVIN,
  DEVIN_V1_STATUS,
  DEVIN_V1_STATUSES,
  DEVIN_V3_DETAIL,
  DEVIN_V3_DETAILS,
  DEVIN_V3_STATUS,
  DEVIN_V3_STATUSES,
  messageStep,
  SUSPENDED_WORDS,
  toProviderTask,
  waitingOf
} from './mapping'
import { type DevinMessage, messageSchema, selfSchema, v1SessionSchema, v3SessionSchema } from './schemas'

const v3 = (raw: Record<string, unknown>) =>
  readOne({ session_id: 'devin-1', url: 'https://app.devin.ai/sessions/1', ...raw }, v3SessionSchema, 'a session')
const v1 = (raw: Record<string, unknown>) => readOne({ session_id: 'devin-1', ...raw }, v1SessionSchema, 'a session')
const msg = (source: string, message: string, id = message): DevinMessage =>
  readOne({ event_id: id, source, message, created_at: 1_700_000_000 }, messageSchema, 'a message')

describe('status tables', () => {
  it('map every word the references list, and only those', () => {
    expect(Object.keys(DEVIN_V3_STATUS).sort()).toEqual([...DEVIN_V3_STATUSES].sort())
    expect(Object.keys(DEVIN_V3_DETAIL).sort()).toEqual([...DEVIN_V3_DETAILS].sort())
    expect(Object.keys(DEVIN_V1_STATUS).sort()).toEqual([...DEVIN_V1_STATUSES].sort())
    expect(DEVIN_V3_DETAIL).toMatchObject({
      working: 'running',
      waiting_for_user: 'waiting',
      waiting_for_approval: 'waiting',
      finished: 'completed',
      out_of_credits: 'waiting',
      usage_limit_exceeded: 'waiting',
      user_request: 'cancelled',
      error: 'failed'
    })
    expect(DEVIN_V1_STATUS).toMatchObject({ working: 'running', blocked: 'waiting', finished: 'completed' })
  })

  it.each(DEVIN_V3_DETAILS)('v3 status_detail %s is the service word, over the status', (detail) => {
    const task = toProviderTask(v3({ status: detail === 'working' ? 'running' : 'suspended', status_detail: detail }))
    expect({ status: task.status, serviceStatus: task.serviceStatus }).toEqual({
      status: DEVIN_V3_DETAIL[detail],
      serviceStatus: detail
    })
  })

  it.each(DEVIN_V3_STATUSES)('v3 status %s without a detail is the word', (status) => {
    const task = toProviderTask(v3({ status }))
    expect({ status: task.status, serviceStatus: task.serviceStatus }).toEqual({
      status: DEVIN_V3_STATUS[status],
      serviceStatus: status
    })
  })

  it.each(DEVIN_V1_STATUSES)('v1 status_enum %s is the word', (word) => {
    const task = toProviderTask(v1({ status: 'free text', status_enum: word }))
    expect({ status: task.status, serviceStatus: task.serviceStatus }).toEqual({
      status: DEVIN_V1_STATUS[word],
      serviceStatus: word
    })
  })

  it.each([
    ['v3 detail', v3({ status: 'suspended', status_detail: 'on_holiday' }), 'on_holiday'],
    ['v3 status', v3({ status: 'paused' }), 'paused'],
    ['v1', v1({ status: 'Running', status_enum: 'sleeping' }), 'sleeping'],
    ['v1 without status_enum', v1({ status: 'Running' }), 'Running'],
    ['a prototype word', v3({ status: 'constructor' }), 'constructor']
  ])('an unknown word (%s) is unknown, kept', (_what, session, word) => {
    expect(toProviderTask(session)).toMatchObject({ status: 'unknown', serviceStatus: word })
  })
})

describe('what waits for you', () => {
  const said = [
    msg('user', 'Fix the login'),
    msg('devin', 'Which branch?'),
    msg('user', 'main'),
    msg('devin', 'May I push?')
  ]

  it('waiting for the user is a question: the latest thing Devin said, answered on its page', () => {
    expect(toProviderTask(v3({ status: 'running', status_detail: 'waiting_for_user' }), said).waiting).toEqual({
      kind: 'question',
      text: 'May I push?',
      where: 'https://app.devin.ai/sessions/1'
    })
    expect(toProviderTask(v1({ status_enum: 'blocked', url: 'https://x' }), said.slice(0, 2)).waiting).toEqual({
      kind: 'question',
      text: 'Which branch?',
      where: 'https://x'
    })
  })

  it('waiting for approval is a permission; without messages read, nothing is made up', () => {
    expect(toProviderTask(v3({ status: 'running', status_detail: 'waiting_for_approval' })).waiting).toEqual({
      kind: 'permission',
      text: null,
      where: 'https://app.devin.ai/sessions/1'
    })
  })

  it.each(Object.keys(SUSPENDED_WORDS))('suspended for %s waits, saying so in words', (reason) => {
    const task = toProviderTask(v3({ status: 'suspended', status_detail: reason }))
    expect(task.status).toBe('waiting')
    expect(task.waiting?.kind).toBe('permission')
    expect(task.waiting?.text).toMatch(/^Devin is suspended: /)
  })

  it('out of credits names credits', () => {
    const task = toProviderTask(v3({ status: 'suspended', status_detail: 'out_of_credits' }))
    expect(task.waiting?.text).toMatch(/^Devin is suspended: out of credits/)
  })

  it.each(['working', 'finished', 'inactivity', 'user_request', 'error'])('%s asks nothing', (detail) => {
    expect(toProviderTask(v3({ status: 'running', status_detail: detail }), said).waiting).toBeNull()
  })
})

describe('costs, links, steps', () => {
  it('acus_consumed is a cost in ACU, never USD; absent is no cost, 0 is 0', () => {
    expect(toProviderTask(v3({ status: 'exit', acus_consumed: 4.5 })).costs).toEqual([{ amount: 4.5, unit: ACU }])
    expect(ACU).not.toBe(USD)
    expect(toProviderTask(v3({ status: 'exit' })).costs).toEqual([])
    expect(toProviderTask(v3({ status: 'exit', acus_consumed: 0 })).costs).toEqual([{ amount: 0, unit: 'ACU' }])
    expect(toProviderTask(v3({ status: 'exit', acus_consumed: 'lots' })).costs).toEqual([])
    expect(toProviderTask(v1({ status_enum: 'finished' })).costs).toEqual([])
  })

  it("each PR is a link: v3's pull_requests, v1's pull_request", () => {
    const three = v3({ pull_requests: [{ pr_url: 'https://github.com/o/r/pull/1' }, { pr_state: 'open' }, 'junk'] })
    expect(toProviderTask(three).links.pullRequests).toEqual([
      { id: null, url: 'https://github.com/o/r/pull/1', title: null }
    ])
    const one = v1({ pull_request: { url: 'https://github.com/o/r/pull/2' } })
    expect(toProviderTask(one).links.pullRequests.map((p) => p.url)).toEqual(['https://github.com/o/r/pull/2'])
    expect(toProviderTask(v1({ pull_request: null })).links.pullRequests).toEqual([])
  })

  it("v3 times are Unix seconds, read as ISO; v1's are ISO", () => {
    expect(toProviderTask(v3({ created_at: 1_700_000_000 })).createdAt).toBe('2023-11-14T22:13:20.000Z')
    expect(toProviderTask(v1({ updated_at: '2023-11-07T05:31:56Z' })).updatedAt).toBe('2023-11-07T05:31:56Z')
  })

  it('messages are steps, oldest first, their words untrusted and kept', () => {
    const steps = toProviderTask(v3({}), [msg('user', '<b>hi</b>', 'e1'), msg('devin', 'On it', 'e2')]).steps
    expect(steps).toEqual([
      {
        id: 'e1',
        kind: 'user',
        title: '<b>hi</b>',
        detail: null,
        at: '2023-11-14T22:13:20.000Z',
        status: null,
        serviceStatus: null
      },
      {
        id: 'e2',
        kind: 'devin',
        title: 'On it',
        detail: null,
        at: '2023-11-14T22:13:20.000Z',
        status: null,
        serviceStatus: null
      }
    ])
    expect(toProviderTask(v3({})).steps).toBeUndefined()
  })
})

describe("the documentation's example bodies", () => {
  const dropped: unknown[] = []
  const report = (d: unknown) => dropped.push(d)

  it('v3 list sessions reads as one task with its ACUs, PR and detail', () => {
    const [s] = readList(V3_LIST_SESSIONS, 'items', v3SessionSchema, 'session', report)
    expect(s).toBeDefined()
    const task = toProviderTask(s!, readList(V3_LIST_MESSAGES, 'items', messageSchema, 'message', report))
    expect(task).toMatchObject({
      id: '<string>',
      title: '<string>',
      status: 'running',
      serviceStatus: 'working',
      costs: [{ amount: 123, unit: 'ACU' }],
      links: { page: '<string>', pullRequests: [{ url: '<string>' }] },
      steps: [{ id: '<string>', kind: 'devin', title: '<string>' }]
    })
    expect(dropped).toEqual([])
  })

  it('v3 self names the organization', () => {
    expect(readOne(V3_SELF, selfSchema, 'who')).toEqual({ orgId: '<string>' })
    expect(readOne({ ...V3_SELF, org_id: null }, selfSchema, 'who')).toEqual({ orgId: null })
  })

  it('v1 list and details read as a task with status_enum as the word', () => {
    const [s] = readList(V1_LIST_SESSIONS, 'sessions', v1SessionSchema, 'session', report)
    expect(toProviderTask(s!)).toMatchObject({ status: 'running', serviceStatus: 'working', costs: [] })
    const details = readOne(V1_GET_SESSION, v1SessionSchema, 'a session')
    expect(readList(V1_GET_SESSION, 'messages', messageSchema, 'message', report)).toEqual([])
    expect(toProviderTask(details).links.pullRequests).toHaveLength(1)
    expect(dropped).toEqual([])
  })

  it('a session without its id is dropped alone', () => {
    const got: unknown[] = []
    const body = { items: [{ status: 'running' }, ...V3_LIST_SESSIONS.items] }
    expect(readList(body, 'items', v3SessionSchema, 'session', (d) => got.push(d))).toHaveLength(1)
    expect(got).toHaveLength(1)
  })
})

describe('the key and the descriptor', () => {
  it('the prefix names the API where it can', () => {
    expect(apiOfKey('cog_abc')).toBe('v3')
    expect(apiOfKey('apk_abc')).toBe('v1')
    expect(apiOfKey(' apk_user_abc')).toBe('v1')
    expect(apiOfKey('abc')).toBeNull()
  })

  it('offers steps, cost and reply; no approve, publish, projects or starting a task', () => {
    expect(DEVIN).toMatchObject({ kind: 'devin', displayName: 'Devin', defaultBaseUrl: 'https://api.devin.ai' })
    expect(DEVIN.capabilities).toEqual({
      steps: true,
      cost: true,
      reply: true,
      approve: false,
      publish: false,
      projects: false,
      startTask: false
    })
  })
})

describe('the edges of what is asked and shown', () => {
  it("asks with the latest non-empty thing Devin said, past the user's words and Devin's empty ones", () => {
    const asked = (messages: DevinMessage[]) =>
      toProviderTask(v3({ status: 'running', status_detail: 'waiting_for_user' }), messages).waiting?.text
    expect(asked([msg('devin', 'Which branch?'), msg('user', 'main'), msg('devin', '', 'e1')])).toBe('Which branch?')
    // The only message, the first of the list, is read too.
    expect(asked([msg('devin', 'Only this')])).toBe('Only this')
    expect(asked([msg('user', 'Hello')])).toBeNull()
  })

  it('a word that waits on one API is not read as waiting on the other', () => {
    // v1 has no waiting_for_user: its status_enum of that word is unknown, and nothing is asked.
    expect(toProviderTask(v1({ status_enum: 'waiting_for_user' }), [msg('devin', 'Q?')])).toMatchObject({
      status: 'unknown',
      waiting: null
    })
    expect(waitingOf(v3({ status: 'running', status_detail: 'working' }))).toBeNull()
  })

  it('a session without a title is named by its id; a message without words by who sent it', () => {
    expect(toProviderTask(v3({ status: 'running', title: '' })).title).toBe('devin-1')
    expect(messageStep(msg('devin', '', 'd1'))).toMatchObject({ kind: 'devin', title: 'Devin' })
    expect(messageStep(msg('user', '', 'u1'))).toMatchObject({ kind: 'user', title: 'Message' })
    expect(messageStep({ id: 'x', source: '', fromDevin: false, text: '', at: null })).toMatchObject({
      kind: 'message',
      title: 'Message'
    })
  })
})
