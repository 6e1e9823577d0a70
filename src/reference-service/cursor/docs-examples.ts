// Example bodies of the Cursor Cloud Agents API v1, kept once for the fake and the adapter's tests. Written from the
// fields and words https://cursor.com/docs/cloud-agent/api/endpoints documents (an agent and its runs, `items` and
// `nextCursor`, a run's status, result, durationMs and git.branches[].prUrl, the stream's event names, the agent_busy
// and stream_expired codes); its example ids ("bc-…", "run-…") and the dashboard address are the page's own.

export const AGENT = {
  id: 'bc-00000000-0000-0000-0000-000000000001',
  name: 'Add README Documentation',
  url: 'https://cursor.com/agents?id=bc-00000000-0000-0000-0000-000000000001',
  createdAt: '2024-01-15T10:30:00Z',
  updatedAt: '2024-01-15T10:45:00Z',
  latestRunId: 'run-00000000-0000-0000-0000-000000000001',
  repos: [{ url: 'https://github.com/your-org/your-repo', startingRef: 'main' }],
  archived: false
}

export const RUN = {
  id: 'run-00000000-0000-0000-0000-000000000001',
  agentId: AGENT.id,
  status: 'FINISHED',
  prompt: { text: 'Add a README.md file with installation instructions' },
  result: 'Added README.md with installation instructions and usage examples',
  durationMs: 42000,
  createdAt: '2024-01-15T10:30:00Z',
  updatedAt: '2024-01-15T10:45:00Z',
  git: {
    branches: [
      {
        repoUrl: 'https://github.com/your-org/your-repo',
        branch: 'cursor/add-readme-documentation',
        prUrl: 'https://github.com/your-org/your-repo/pull/1234'
      }
    ]
  }
}

export const LIST_AGENTS = { items: [AGENT], nextCursor: null }
export const LIST_RUNS = { items: [RUN], nextCursor: null }

/** The run stream's events in the order a run sends them. */
export const STREAM_EVENTS: { event: string; data: Record<string, unknown> }[] = [
  { event: 'status', data: { status: 'RUNNING' } },
  { event: 'thinking', data: { text: 'Looking at the repository layout.' } },
  {
    event: 'tool_call',
    data: { callId: 'call-1', name: 'read_file', status: 'completed', args: { path: 'package.json' } }
  },
  { event: 'assistant', data: { text: 'I will add a README with the install steps.' } },
  {
    event: 'tool_call',
    data: { callId: 'call-2', name: 'edit_file', status: 'completed', args: { path: 'README.md' } }
  },
  { event: 'interaction_update', data: { type: 'text-delta', text: 'Done.' } },
  { event: 'result', data: { result: RUN.result } },
  { event: 'status', data: { status: 'FINISHED' } },
  { event: 'done', data: {} }
]

export const AGENT_BUSY = { error: { code: 'agent_busy', message: 'Agent already has an active run.' } }
export const STREAM_EXPIRED = { error: { code: 'stream_expired', message: 'Run stream is no longer available.' } }
export const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'Invalid API key.' } }
