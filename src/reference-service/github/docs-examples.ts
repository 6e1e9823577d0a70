// The documentation's own example bodies, as published (YAML written as JSON, nothing else changed), in one copy: the
// fake builds its records on them and the adapter's tests read them, so neither drifts from what GitHub says it sends.
// Source: github/rest-api-description, descriptions-next/api.github.com/dereferenced/api.github.com.2026-03-10.deref.yaml
// (docs.github.com/rest/agent-tasks).

/** GET /agents/repos/{owner}/{repo}/tasks, 200, examples.default. */
export const LIST_TASKS_FOR_REPO = {
  tasks: [
    {
      id: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      url: 'https://api.github.com/agents/repos/octocat/hello-world/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      html_url: 'https://github.com/octocat/hello-world/copilot/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      name: 'Fix the login button on the homepage',
      creator: { id: 1 },
      creator_type: 'user',
      owner: { id: 1 },
      repository: { id: 1296269 },
      state: 'completed',
      session_count: 1,
      artifacts: [{ provider: 'github', type: 'pull', data: { id: 42 } }],
      archived_at: null,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T01:00:00Z'
    }
  ]
}

/** GET /agents/tasks, 200, examples.default. */
export const LIST_TASKS = {
  tasks: [
    {
      id: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      name: 'Fix the login button on the homepage',
      creator: { id: 1 },
      creator_type: 'user',
      owner: { id: 1 },
      repository: { id: 1296269 },
      state: 'completed',
      session_count: 1,
      artifacts: [{ provider: 'github', type: 'pull', data: { id: 42 } }],
      archived_at: null,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T01:00:00Z'
    }
  ]
}

/** The Link header's example for GET /agents/tasks. */
export const LIST_TASKS_LINK =
  '<https://api.github.com/agents/tasks?page=2&per_page=30>; rel="next", <https://api.github.com/agents/tasks?page=1&per_page=30>; rel="first"'

/** GET /agents/tasks/{task_id}, 200, examples.default. */
export const GET_TASK = {
  id: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
  url: 'https://api.github.com/agents/repos/octocat/hello-world/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890',
  html_url: 'https://github.com/octocat/hello-world/copilot/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890',
  name: 'Fix the login button on the homepage',
  creator: { id: 1 },
  creator_type: 'user',
  owner: { id: 1 },
  repository: { id: 1296269 },
  state: 'completed',
  session_count: 1,
  artifacts: [{ provider: 'github', type: 'pull', data: { id: 42 } }],
  archived_at: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T01:00:00Z',
  sessions: [
    {
      id: 's1a2b3c4-d5e6-7890-abcd-ef1234567890',
      name: 'Fix the login button on the homepage',
      user: { id: 1 },
      owner: { id: 1 },
      repository: { id: 1296269 },
      task_id: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      state: 'completed',
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T01:00:00Z',
      completed_at: '2025-01-01T01:00:00Z',
      prompt: 'Fix the login button on the homepage',
      head_ref: 'copilot/fix-1',
      base_ref: 'main',
      model: 'claude-sonnet-4.6'
    }
  ]
}
