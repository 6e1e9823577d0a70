// Cursor's run statuses and the documentation's example bodies (docs-examples.ts) as every surface reads them.
import { describe, expect, it } from 'vitest'
import { AGENT, LIST_AGENTS, LIST_RUNS, RUN, STREAM_EVENTS } from '../../../reference-service/cursor/docs-examples'
import { readList } from '../records'
import { CURSOR, CURSOR_RUN_STATUSES, CURSOR_STATUS, repoName, toProviderTask } from './mapping'
import { agentSchema, runSchema } from './schemas'
import { toolStep } from './stream'

const agent = agentSchema.parse(AGENT)
const run = runSchema.parse(RUN)

describe('the Cursor status table', () => {
  it('maps every documented run status, and has no waiting state: Cursor has none', () => {
    expect(CURSOR_STATUS).toEqual({
      CREATING: 'queued',
      RUNNING: 'running',
      FINISHED: 'completed',
      ERROR: 'failed',
      CANCELLED: 'cancelled',
      EXPIRED: 'failed'
    })
    expect(Object.keys(CURSOR_STATUS)).toEqual([...CURSOR_RUN_STATUSES])
    expect(Object.values(CURSOR_STATUS)).not.toContain('waiting')
  })

  it('keeps a word it does not know as unknown, and an agent without a run is unknown too', () => {
    expect(toProviderTask(agent, { ...run, status: 'PAUSED' })).toMatchObject({
      status: 'unknown',
      serviceStatus: 'PAUSED'
    })
    expect(toProviderTask(agent, null)).toMatchObject({ status: 'unknown', serviceStatus: '', waiting: null })
  })

  it('offers steps and reply, and neither approve nor cost', () => {
    expect(CURSOR.capabilities).toEqual({
      steps: true,
      cost: false,
      publish: false,
      projects: false,
      approve: false,
      reply: true,
      startTask: false
    })
    expect(CURSOR.keyPage).toBe('https://cursor.com/dashboard/integrations')
  })
})

describe("the documentation's example bodies", () => {
  it('read as one task: the agent with its latest run, its PR as a link, its repository as project', () => {
    const task = toProviderTask(agent, run, [])
    expect(task).toMatchObject({
      id: AGENT.id,
      title: 'Add README Documentation',
      status: 'completed',
      serviceStatus: 'FINISHED',
      waiting: null,
      links: {
        page: AGENT.url,
        pullRequests: [
          { id: null, url: 'https://github.com/your-org/your-repo/pull/1234', title: 'cursor/add-readme-documentation' }
        ]
      },
      project: { id: 'https://github.com/your-org/your-repo', name: 'your-org/your-repo' },
      createdAt: '2024-01-15T10:30:00Z',
      updatedAt: '2024-01-15T10:45:00Z',
      costs: []
    })
    expect(task.steps).toEqual([
      expect.objectContaining({ kind: 'result', title: 'Result after 42 s', detail: RUN.result })
    ])
  })

  it('lists read record by record from items, a broken one dropped alone', () => {
    const dropped: string[] = []
    const agents = readList({ items: [...LIST_AGENTS.items, { name: 'no id' }] }, 'items', agentSchema, 'agent', (d) =>
      dropped.push(d.path)
    )
    expect(agents.map((a) => a.id)).toEqual([AGENT.id])
    expect(dropped).toEqual(['items[1].id'])
    expect(readList(LIST_RUNS, 'items', runSchema, 'run', () => {})[0]?.durationMs).toBe(42000)
  })

  it('a tool_call event is a step titled by the tool', () => {
    const e = STREAM_EVENTS.find((x) => x.event === 'tool_call')
    const step = toolStep({ id: '3', event: 'tool_call', data: JSON.stringify(e?.data) })
    expect(step).toMatchObject({ id: 'call-1', kind: 'tool_call', title: 'read_file', serviceStatus: 'completed' })
    expect(step.detail).toContain('package.json')
  })

  it('names a GitHub repository owner/repo and keeps any other address', () => {
    expect(repoName('https://github.com/a/b.git')).toBe('a/b')
    expect(repoName('https://gitlab.com/a/b')).toBe('https://gitlab.com/a/b')
  })
})
