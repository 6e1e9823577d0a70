// Cursor's run statuses and the documentation's example bodies (docs-examples.ts) as every surface reads them.
import { describe, expect, it } from 'vitest'
import {
  AGENT,
  GET_AGENT,
  LIST_AGENTS,
  LIST_RUNS,
  RUN,
  STREAM_EVENTS
} from '../../../reference-service/cursor/docs-examples'
import { readList } from '../records'
import { CURSOR, CURSOR_RUN_STATUSES, CURSOR_STATUS, repoName, resultStep, toProviderTask } from './mapping'
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
  it('read as one task: the listed agent with its run (Get A Run), its PR as a link, its branch repository as project', () => {
    const task = toProviderTask(agent, run, [])
    expect(task).toMatchObject({
      id: AGENT.id,
      title: 'Add README with setup instructions',
      status: 'completed',
      serviceStatus: 'FINISHED',
      waiting: null,
      links: {
        page: 'https://cursor.com/agents/bc-00000000-0000-0000-0000-000000000001',
        pullRequests: [
          { id: null, url: 'https://github.com/your-org/your-repo/pull/123', title: 'cursor/add-readme-a1b2' }
        ]
      },
      project: { id: 'github.com/your-org/your-repo', name: 'your-org/your-repo' },
      createdAt: '2026-04-13T18:30:00.000Z',
      updatedAt: '2026-04-13T18:45:00.000Z',
      costs: []
    })
    expect(task.steps).toEqual([
      expect.objectContaining({ kind: 'result', title: 'Result after 12 s', detail: RUN.result })
    ])
  })

  it("names the project alike from the full agent's repos and from a run's scheme-less branch", () => {
    const full = agentSchema.parse(GET_AGENT)
    expect(toProviderTask(full, null).project).toEqual({
      id: 'github.com/your-org/your-repo',
      name: 'your-org/your-repo'
    })
    expect(toProviderTask(agent, null).project).toBeNull()
  })

  it('a running run from List Runs: its branch pushed, no PR yet, no result step', () => {
    const [running] = readList(LIST_RUNS, 'items', runSchema, 'run', () => {})
    const task = toProviderTask(agent, running ?? null, [])
    expect(task).toMatchObject({
      status: 'running',
      links: { pullRequests: [] },
      project: { name: 'your-org/your-repo' }
    })
    expect(task.steps).toEqual([])
  })

  it('lists read record by record from items, a broken one dropped alone', () => {
    const dropped: string[] = []
    const agents = readList({ items: [...LIST_AGENTS.items, { name: 'no id' }] }, 'items', agentSchema, 'agent', (d) =>
      dropped.push(d.path)
    )
    expect(agents.map((a) => a.id)).toEqual([AGENT.id])
    expect(dropped).toEqual(['items[1].id'])
  })

  it('a tool_call event is a step titled by the tool, told again as the call completes (same id)', () => {
    const calls = STREAM_EVENTS.filter((x) => x.event === 'tool_call')
    const steps = calls.map((e) => toolStep({ id: e.id, event: 'tool_call', data: JSON.stringify(e.data) }))
    expect(steps.map((s) => [s.id, s.title, s.serviceStatus])).toEqual([
      ['call-1', 'read_file', 'running'],
      ['call-1', 'read_file', 'completed']
    ])
    expect(steps[0]?.detail).toBe('{"path":"README.md"}')
  })

  it('names a GitHub repository owner/repo, with or without its scheme, and keeps any other address', () => {
    expect(repoName('https://github.com/a/b.git')).toBe('a/b')
    expect(repoName('github.com/a/b')).toBe('a/b')
    expect(repoName('https://gitlab.com/a/b')).toBe('https://gitlab.com/a/b')
  })
})

describe('a run as a task, at its edges', () => {
  it('the result step: none without result and duration; milliseconds under a second; the words kept apart', () => {
    expect(resultStep({ ...run, result: '', durationMs: null })).toBeNull()
    expect(resultStep({ ...run, result: '', durationMs: 800, updatedAt: '' })).toEqual({
      id: `${run.id}:result`,
      kind: 'result',
      title: 'Result after 800 ms',
      detail: null,
      at: null,
      status: null,
      serviceStatus: null
    })
    expect(resultStep({ ...run, durationMs: null })).toMatchObject({ title: 'Result', detail: RUN.result })
    expect(resultStep({ ...run, durationMs: 1_499 })?.title).toBe('Result after 1 s')
  })

  it('steps told live end with the result, which replaces one told before; without steps read, none', () => {
    const live = {
      id: 'call-1',
      kind: 'tool_call',
      title: 'read_file',
      detail: null,
      at: null,
      status: null,
      serviceStatus: null
    }
    const old = { ...live, id: `${run.id}:result`, title: 'old result' }
    expect(toProviderTask(agent, run, [old, live]).steps?.map((s) => s.title)).toEqual([
      'read_file',
      'Result after 12 s'
    ])
    expect(toProviderTask(agent, { ...run, result: '', durationMs: null }, [live]).steps).toEqual([live])
    expect(toProviderTask(agent, run)).not.toHaveProperty('steps')
  })

  it('an agent without a name is named by its id; its times fall back to its own; a branch without a PR is no link', () => {
    const task = toProviderTask(
      { ...agent, name: '', createdAt: '', url: '' },
      { ...run, updatedAt: '', branches: [{ repoUrl: null, branch: 'b', prUrl: null }] }
    )
    expect(task).toMatchObject({
      title: AGENT.id,
      createdAt: null,
      updatedAt: AGENT.updatedAt,
      links: { page: null, pullRequests: [] },
      project: null
    })
    expect(toProviderTask({ ...agent, updatedAt: '' }, null).updatedAt).toBeNull()
  })
})

describe('repositories and links, at their edges', () => {
  it('reads only a GitHub address, http or https, from its start', () => {
    expect(repoName('http://github.com/a/b')).toBe('a/b')
    expect(repoName('https://example.com/github.com/a/b')).toBe('https://example.com/github.com/a/b')
  })

  it('takes the first branch that names its repository, without an http or https scheme; no run, no links', () => {
    const task = toProviderTask(agent, {
      ...run,
      branches: [
        { repoUrl: null, branch: 'x', prUrl: null },
        { repoUrl: 'github.com/a/b', branch: 'y', prUrl: null }
      ]
    })
    expect(task.project).toEqual({ id: 'github.com/a/b', name: 'a/b' })
    const full = { ...agent, repos: ['http://github.com/c/d'] }
    expect(toProviderTask(full, null).project).toEqual({ id: 'github.com/c/d', name: 'c/d' })
    expect(toProviderTask(agent, null).links.pullRequests).toEqual([])
  })

  it('drops only a leading scheme from the repository it names', () => {
    const odd = 'git.example.com/r?from=https://x'
    const task = toProviderTask(agent, { ...run, branches: [{ repoUrl: odd, branch: null, prUrl: null }] })
    expect(task.project).toEqual({ id: odd, name: odd })
  })

  it('a run of exactly one second reads in seconds', () => {
    expect(resultStep({ ...run, durationMs: 1_000 })?.title).toBe('Result after 1 s')
  })
})
