// The documentation's own example bodies, as published, in one copy: the fake builds its records on them and the
// adapter's tests read them, so neither drifts from what Jules says it sends. Sources:
// https://jules.google/docs/api/reference/sessions and https://jules.google/docs/api/reference/activities (their
// "Response" blocks), and https://developers.google.com/jules/api (the ListActivities example).

/** GET /v1alpha/sessions (jules.google/docs/api/reference/sessions, "List Sessions"). */
export const LIST_SESSIONS = {
  sessions: [
    {
      name: '1234567',
      id: 'abc123',
      title: 'Add auth tests',
      state: 'COMPLETED',
      createTime: '2024-01-15T10:30:00Z',
      updateTime: '2024-01-15T11:45:00Z'
    }
  ],
  nextPageToken: 'eyJvZmZzZXQiOjEwfQ=='
}

/** GET /v1alpha/sessions/{id} ("Get a Session"). */
export const GET_SESSION = {
  name: '1234567',
  id: 'abc123',
  prompt: 'Add comprehensive unit tests for the authentication module',
  title: 'Add auth tests',
  state: 'COMPLETED',
  url: 'https://jules.google.com/session/abc123',
  createTime: '2024-01-15T10:30:00Z',
  updateTime: '2024-01-15T11:45:00Z',
  outputs: [
    {
      pullRequest: {
        url: 'https://github.com/myorg/myrepo/pull/42',
        title: 'Add auth tests',
        description: 'Added unit tests for authentication module'
      }
    }
  ]
}

/** GET /v1alpha/sessions/{id}/activities (jules.google/docs/api/reference/activities, "List Activities"). */
export const LIST_ACTIVITIES = {
  activities: [
    {
      name: '1234567/activities/act1',
      id: 'act1',
      originator: 'system',
      description: 'Session started',
      createTime: '2024-01-15T10:30:00Z'
    },
    {
      name: '1234567/activities/act2',
      id: 'act2',
      originator: 'agent',
      description: 'Plan generated',
      planGenerated: {
        plan: {
          id: 'plan1',
          steps: [
            {
              id: 'step1',
              index: 0,
              title: 'Analyze existing code',
              description: 'Review the authentication module structure'
            },
            { id: 'step2', index: 1, title: 'Write unit tests', description: 'Create comprehensive test coverage' }
          ],
          createTime: '2024-01-15T10:31:00Z'
        }
      },
      createTime: '2024-01-15T10:31:00Z'
    }
  ],
  nextPageToken: 'eyJvZmZzZXQiOjIwfQ=='
}

/** The activity kinds' example bodies ("Activity Types"), each a whole activity's one kind field. */
export const ACTIVITY_KIND_EXAMPLES = {
  planApproved: { planApproved: { planId: 'plan1' } },
  userMessaged: { userMessaged: { userMessage: 'Please also add integration tests' } },
  agentMessaged: {
    agentMessaged: {
      agentMessage: "I've completed the unit tests. Would you like me to add integration tests as well?"
    }
  },
  progressUpdated: {
    progressUpdated: { title: 'Writing tests', description: 'Creating test cases for login functionality' }
  },
  sessionCompleted: { sessionCompleted: {} },
  sessionFailed: { sessionFailed: { reason: 'Unable to install dependencies' } }
}
