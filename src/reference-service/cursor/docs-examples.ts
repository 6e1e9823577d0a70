// The example bodies of https://cursor.com/docs/cloud-agent/api/endpoints (Cloud Agents API v1), as the page prints
// them, kept once for the fake and the adapter's tests. The page gives no example of an error body: those below take
// the shape of the OpenAPI's `Error` schema (/docs-static/cloud-agents-openapi.yaml, `{ error: { code, message } }`)
// and the page's codes; their messages are ours.

/** GET /v1/agents ("List Agents"): items carry only the durable identity fields (no `repos`). */
export const LIST_AGENTS = {
  items: [
    {
      id: 'bc-00000000-0000-0000-0000-000000000001',
      name: 'Add README with setup instructions',
      status: 'ACTIVE',
      env: { type: 'cloud' },
      url: 'https://cursor.com/agents/bc-00000000-0000-0000-0000-000000000001',
      createdAt: '2026-04-13T18:30:00.000Z',
      updatedAt: '2026-04-13T18:45:00.000Z',
      latestRunId: 'run-00000000-0000-0000-0000-000000000001'
    }
  ],
  nextCursor: 'bc-00000000-0000-0000-0000-000000000002'
}
export const AGENT = LIST_AGENTS.items[0] as (typeof LIST_AGENTS.items)[number]

/** GET /v1/agents/{id} ("Get An Agent"): the full record. */
export const GET_AGENT = {
  id: 'bc-00000000-0000-0000-0000-000000000001',
  name: 'Add README with setup instructions',
  status: 'ACTIVE',
  env: { type: 'cloud' },
  repos: [{ url: 'https://github.com/your-org/your-repo', startingRef: 'main' }],
  workOnCurrentBranch: false,
  autoCreatePR: true,
  url: 'https://cursor.com/agents/bc-00000000-0000-0000-0000-000000000001',
  createdAt: '2026-04-13T18:30:00.000Z',
  updatedAt: '2026-04-13T18:30:00.000Z',
  latestRunId: 'run-00000000-0000-0000-0000-000000000001'
}

/** GET /v1/agents/{id}/runs ("List Runs"): a running run, its branch pushed, no PR yet, no `nextCursor`. */
export const LIST_RUNS = {
  items: [
    {
      id: 'run-00000000-0000-0000-0000-000000000002',
      agentId: 'bc-00000000-0000-0000-0000-000000000001',
      status: 'RUNNING',
      createdAt: '2026-04-13T18:50:00.000Z',
      updatedAt: '2026-04-13T18:51:00.000Z',
      git: { branches: [{ repoUrl: 'github.com/your-org/your-repo', branch: 'cursor/add-readme-a1b2' }] }
    }
  ]
}

/** GET /v1/agents/{id}/runs/{runId} ("Get A Run"): a finished run; `repoUrl` comes without its scheme. */
export const RUN = {
  id: 'run-00000000-0000-0000-0000-000000000001',
  agentId: 'bc-00000000-0000-0000-0000-000000000001',
  status: 'FINISHED',
  createdAt: '2026-04-13T18:30:00.000Z',
  updatedAt: '2026-04-13T18:45:00.000Z',
  durationMs: 12357,
  result: 'Added README.md with installation instructions and usage examples.',
  git: {
    branches: [
      {
        repoUrl: 'github.com/your-org/your-repo',
        branch: 'cursor/add-readme-a1b2',
        prUrl: 'https://github.com/your-org/your-repo/pull/123'
      }
    ]
  }
}

/** POST /v1/agents/{id}/runs ("Create A Run"): the request, and the answer. */
export const CREATE_RUN = { prompt: { text: 'Also add troubleshooting steps' } }
export const CREATED_RUN = {
  run: {
    id: 'run-00000000-0000-0000-0000-000000000002',
    agentId: 'bc-00000000-0000-0000-0000-000000000001',
    status: 'CREATING',
    createdAt: '2026-04-13T18:50:00.000Z',
    updatedAt: '2026-04-13T18:50:00.000Z'
  }
}

/** GET /v1/me ("API Key Info") for a user's key. */
export const ME = {
  apiKeyName: 'Production API Key',
  userId: 42,
  createdAt: '2026-04-13T18:30:00.000Z',
  userEmail: 'developer@example.com',
  userFirstName: 'Alex',
  userLastName: 'Rivera'
}

/** GET …/runs/{runId}/stream ("Stream A Run"), the page's example stream as sent. The leading `status` has no id (it
 * is sent again at the top of every reconnect); `result` carries the terminal status; `done` repeats its id. */
export const STREAM_TEXT = `event: status
data: {"runId":"run-00000000-0000-0000-0000-000000000001","status":"RUNNING"}

id: 1713033000000-0
event: assistant
data: {"text":"I'll update the README now."}

id: 1713033005000-0
event: tool_call
data: {"callId":"call-1","name":"read_file","status":"running","args":{"path":"README.md"}}

id: 1713033006000-0
event: tool_call
data: {"callId":"call-1","name":"read_file","status":"completed","args":{"path":"README.md"},"result":{"success":{"content":"# Project","totalLines":1,"fileSize":9,"path":"README.md"}}}

id: 1713033010000-0
event: result
data: {"runId":"run-00000000-0000-0000-0000-000000000001","status":"FINISHED","text":"Added README.md with installation instructions.","durationMs":12357,"git":{"branches":[{"repoUrl":"github.com/your-org/your-repo","branch":"cursor/add-readme-a1b2"}]}}

id: 1713033010000-0
event: done
data: {}

`

/** The same stream as events: its id (empty where the page sends none), name and payload. */
export const STREAM_EVENTS: { id: string; event: string; data: Record<string, unknown> }[] = STREAM_TEXT.trim()
  .split('\n\n')
  .map((block) => {
    const field = (name: string) =>
      block
        .split('\n')
        .find((l) => l.startsWith(`${name}: `))
        ?.slice(name.length + 2) ?? ''
    return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) as Record<string, unknown> }
  })

/** Errors: the page's codes (409 agent_busy, 410 stream_expired) in the OpenAPI's shape; the messages are ours. */
export const AGENT_BUSY = { error: { code: 'agent_busy', message: 'Agent already has an active run.' } }
export const AGENT_ARCHIVED = { error: { code: 'agent_archived', message: 'Agent is archived.' } }
export const STREAM_EXPIRED = { error: { code: 'stream_expired', message: 'Run stream is no longer available.' } }
export const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'Invalid API key.' } }
