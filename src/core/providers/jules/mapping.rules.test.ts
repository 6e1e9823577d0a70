// The edges of the Jules mapping: what a plan's text is made of when the body is odd, which activity is "the latest",
// how a source is named, and a session's own fields as a task.
import { describe, expect, it } from 'vitest'
import { readList, readOne } from '../records'
import { activityStep, planText, sourceName, toProviderTask, waitingOf } from './mapping'
import { activitySchema, sessionSchema } from './schemas'

const activities = (list: unknown[]) =>
  readList({ activities: list }, 'activities', activitySchema, 'activity', () => {})
const session = (raw: unknown) => readOne(raw, sessionSchema, 'a session')

describe('planText', () => {
  it('numbers the steps that have a title by their place in the plan', () => {
    expect(
      planText({ plan: { steps: [{ title: 'One' }, 'two', null, { title: '' }, { title: 7 }, { title: 'Six' }] } })
    ).toBe('1. One\n6. Six')
  })

  it('no plan, no steps, or no titled step is no text', () => {
    for (const body of [
      {},
      { plan: null },
      { plan: 'a plan' },
      { plan: { steps: 'one, two' } },
      { plan: { steps: [] } },
      { plan: { steps: [{ title: '' }, {}] } }
    ])
      expect(planText(body), JSON.stringify(body)).toBeNull()
  })
})

describe('activities', () => {
  it('a message that is not text, or empty, falls back to the description, then to "Activity"', () => {
    const [a, b, c] = activities([
      { id: 'a', description: 'Agent wrote', agentMessaged: { agentMessage: 42 } },
      { id: 'b', agentMessaged: { agentMessage: '' } },
      { id: 'c' }
    ])
    expect([a, b, c].map((x) => x && activityStep(x).title)).toEqual(['Agent wrote', 'Activity', 'Activity'])
    expect(c && activityStep(c).kind).toBe('activity')
  })

  it('the latest plan: by createTime when both have one, else the later in the list', () => {
    const plan = (id: string, createTime: string | undefined, title: string) => ({
      id,
      ...(createTime ? { createTime } : {}),
      planGenerated: { plan: { steps: [{ title }] } }
    })
    const asked = (list: unknown[]) => waitingOf('AWAITING_PLAN_APPROVAL', null, activities(list))?.text
    expect(asked([plan('1', '2024-01-02T00:00:00Z', 'newer'), plan('2', '2024-01-01T00:00:00Z', 'older')])).toBe(
      '1. newer'
    )
    expect(asked([plan('1', '2024-01-01T00:00:00Z', 'first'), plan('2', '2024-01-01T00:00:00Z', 'same time')])).toBe(
      '1. same time'
    )
    expect(asked([plan('1', '2024-01-02T00:00:00Z', 'dated'), plan('2', undefined, 'undated, later')])).toBe(
      '1. undated, later'
    )
    expect(asked([plan('1', undefined, 'undated'), plan('2', '2024-01-01T00:00:00Z', 'dated, later')])).toBe(
      '1. dated, later'
    )
  })

  it('a question without a message read yet has no text; any other state waits for nothing', () => {
    expect(waitingOf('AWAITING_USER_FEEDBACK', 'https://j/s', [])).toEqual({
      kind: 'question',
      text: null,
      where: 'https://j/s'
    })
    expect(
      waitingOf('IN_PROGRESS', 'https://j/s', activities([{ id: 'm', agentMessaged: { agentMessage: 'Hi' } }]))
    ).toBeNull()
  })
})

describe('sources and sessions', () => {
  it('"sources/" is taken off the front only; "github/OWNER/REPO" exactly is the repository', () => {
    expect(sourceName('sources/github/octo/repo')).toBe('octo/repo')
    expect(sourceName('other/sources/x')).toBe('other/sources/x')
    expect(sourceName('sources/xgithub/a/b')).toBe('xgithub/a/b')
    expect(sourceName('sources/github/a/b/c')).toBe('github/a/b/c')
    expect(sourceName('sources/gitlab/a/b')).toBe('gitlab/a/b')
  })

  it("a session's source is its project; its pull requests are links", () => {
    const s = session({
      id: '9',
      state: 'COMPLETED',
      sourceContext: { source: 'sources/github/octo/repo' },
      outputs: [{ pullRequest: { url: 'https://github.com/octo/repo/pull/1', title: 'Fix' } }]
    })
    const t = toProviderTask(s)
    expect(t.project).toEqual({ id: 'sources/github/octo/repo', name: 'octo/repo' })
    expect(t.links.pullRequests).toEqual([{ id: null, url: 'https://github.com/octo/repo/pull/1', title: 'Fix' }])
    expect(t).not.toHaveProperty('steps')
    expect(toProviderTask(session({ id: '8' })).project).toBeNull()
  })
})
