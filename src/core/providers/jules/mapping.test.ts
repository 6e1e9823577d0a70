// The Jules adapter's words: its state table in full, what waits for you (the plan, the question), activities as
// steps, and the documentation's own example bodies.
import { describe, expect, it } from 'vitest'
import {
  ACTIVITY_KIND_EXAMPLES,
  GET_SESSION,
  LIST_ACTIVITIES,
  LIST_SESSIONS
} from '../../../reference-service/jules/docs-examples'
import { statusFrom } from '../../../shared/provider'
import { readList, readOne } from '../records'
import { ActivityBook } from './etiquette'
import { activityStep, JULES_STATES, JULES_STATUS, sourceName, toProviderTask } from './mapping'
import { ACTIVITY_KINDS, activitySchema, sessionSchema } from './schemas'

const activities = (body: unknown) => readList(body, 'activities', activitySchema, 'activity', () => {})
const session = (raw: unknown) => readOne(raw, sessionSchema, 'a session')

describe('state table', () => {
  it('maps every state the reference lists, and only those', () => {
    expect(Object.keys(JULES_STATUS).sort()).toEqual([...JULES_STATES].sort())
    expect(JULES_STATUS).toEqual({
      STATE_UNSPECIFIED: 'unknown',
      QUEUED: 'queued',
      PLANNING: 'running',
      AWAITING_PLAN_APPROVAL: 'waiting',
      AWAITING_USER_FEEDBACK: 'waiting',
      IN_PROGRESS: 'running',
      PAUSED: 'queued',
      FAILED: 'failed',
      COMPLETED: 'completed'
    })
  })

  it.each(JULES_STATES)('%s keeps its word beside the status', (word) => {
    expect(statusFrom(JULES_STATUS, word)).toEqual({ status: JULES_STATUS[word], serviceStatus: word })
  })

  it.each([['CANCELLED'], ['in_progress'], ['ACTIVE'], ['constructor']])(
    'an unknown word (%s) is unknown, kept',
    (word) => {
      expect(toProviderTask(session({ id: 's', state: word }))).toMatchObject({
        status: 'unknown',
        serviceStatus: word
      })
    }
  )
})

describe("the documentation's example bodies", () => {
  it('a session list', () => {
    const [s] = readList(LIST_SESSIONS, 'sessions', sessionSchema, 'session', () => {})
    expect(toProviderTask(s as never)).toEqual({
      id: 'abc123',
      title: 'Add auth tests',
      status: 'completed',
      serviceStatus: 'COMPLETED',
      waiting: null,
      links: { page: null, pullRequests: [], preview: null },
      project: null,
      createdAt: '2024-01-15T10:30:00Z',
      updatedAt: '2024-01-15T11:45:00Z',
      costs: []
    })
  })

  it('a session with its pull request', () => {
    expect(toProviderTask(session(GET_SESSION)).links).toEqual({
      page: 'https://jules.google.com/session/abc123',
      pullRequests: [{ id: null, url: 'https://github.com/myorg/myrepo/pull/42', title: 'Add auth tests' }],
      preview: null
    })
  })

  it('activities as steps', () => {
    expect(activities(LIST_ACTIVITIES).map(activityStep)).toEqual([
      {
        id: 'act1',
        kind: 'activity',
        title: 'Session started',
        detail: null,
        at: '2024-01-15T10:30:00Z',
        status: null,
        serviceStatus: null
      },
      {
        id: 'act2',
        kind: 'planGenerated',
        title: 'Plan',
        detail: '1. Analyze existing code\n2. Write unit tests',
        at: '2024-01-15T10:31:00Z',
        status: null,
        serviceStatus: null
      }
    ])
  })

  it('each kind of activity, by its own words', () => {
    const steps = activities({
      activities: Object.entries(ACTIVITY_KIND_EXAMPLES).map(([kind, body]) => ({ id: kind, ...body }))
    }).map((a) => [a.kind, activityStep(a).title, activityStep(a).detail])
    expect(steps).toEqual([
      ['planApproved', 'Plan approved', null],
      ['userMessaged', 'Please also add integration tests', null],
      ['agentMessaged', "I've completed the unit tests. Would you like me to add integration tests as well?", null],
      ['progressUpdated', 'Writing tests', 'Creating test cases for login functionality'],
      ['sessionCompleted', 'Session completed', null],
      ['sessionFailed', 'Session failed', 'Unable to install dependencies']
    ])
    expect(new Set(steps.map(([k]) => k))).toEqual(new Set(ACTIVITY_KINDS.filter((k) => k !== 'planGenerated')))
  })
})

describe('waiting for you', () => {
  const page = 'https://jules.google.com/session/abc123'
  const plan = activities(LIST_ACTIVITIES)

  it('a plan to approve, with the plan when the activities were read', () => {
    const s = session({ ...GET_SESSION, state: 'AWAITING_PLAN_APPROVAL' })
    expect(toProviderTask(s, plan).waiting).toEqual({
      kind: 'plan_approval',
      text: '1. Analyze existing code\n2. Write unit tests',
      where: page
    })
    expect(toProviderTask(s).waiting).toEqual({ kind: 'plan_approval', text: null, where: page })
  })

  it("a question: the agent's latest message", () => {
    const asked = activities({
      activities: [
        { id: '1', createTime: '2024-01-15T10:00:00Z', agentMessaged: { agentMessage: 'old' } },
        {
          id: '2',
          createTime: '2024-01-15T11:00:00Z',
          agentMessaged: { agentMessage: 'Which database? \u001b[31m<b>' }
        },
        { id: '3', createTime: '2024-01-15T11:01:00Z', userMessaged: { userMessage: 'mine' } }
      ]
    })
    expect(toProviderTask(session({ ...GET_SESSION, state: 'AWAITING_USER_FEEDBACK' }), asked).waiting).toEqual({
      kind: 'question',
      text: 'Which database? \u001b[31m<b>',
      where: page
    })
  })

  it.each(JULES_STATES.filter((s) => !s.startsWith('AWAITING')))('%s does not wait', (state) => {
    expect(toProviderTask(session({ ...GET_SESSION, state }), plan).waiting).toBeNull()
  })
})

describe('records', () => {
  it('an id from the resource name when the id is absent; neither drops the record alone', () => {
    const dropped: string[] = []
    const out = readList(
      { sessions: [{ name: 'sessions/987' }, { title: 'x' }] },
      'sessions',
      sessionSchema,
      'session',
      (i) => dropped.push(i.path)
    )
    expect(out.map((s) => s.id)).toEqual(['987'])
    expect(dropped).toEqual(['sessions[1].id'])
  })

  it('a title with escape sequences is kept exactly as sent', () => {
    const title = '\u001b[2J\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007'
    expect(toProviderTask(session({ id: 's', title })).title).toBe(title)
  })

  it('a source is named by its repository', () => {
    expect(sourceName('sources/github/bobalover/boba')).toBe('bobalover/boba')
    expect(sourceName('sources/github-myorg-myrepo')).toBe('github-myorg-myrepo')
  })
})

describe('activities only for sessions that moved', () => {
  it('new sessions and those whose updateTime changed are due; the rest are not', () => {
    const book = new ActivityBook()
    const a = session({ id: 'a', updateTime: '1' })
    const b = session({ id: 'b', updateTime: '1' })
    expect(book.due([a, b]).map((s) => s.id)).toEqual(['a', 'b'])
    book.record(a, [])
    book.record(b, [])
    expect(book.due([a, b])).toEqual([])
    expect(book.due([a, session({ id: 'b', updateTime: '2' })]).map((s) => s.id)).toEqual(['b'])
    expect(book.due([session({ id: 'a' })]).map((s) => s.id)).toEqual(['a'])
    book.keepOnly([a])
    expect(book.activities('b')).toBeUndefined()
    expect(book.activities('a')).toEqual([])
  })
})
