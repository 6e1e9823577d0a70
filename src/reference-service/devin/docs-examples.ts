// The documentation's own example bodies, as published (their placeholders included), in one copy: the fake builds its
// records on them and the adapter's tests read them, so neither drifts from what Devin says it sends. Sources:
// https://docs.devin.ai/api-reference/v3/sessions/organizations-sessions, …/v3/sessions/get-organizations-session-messages,
// …/v3/self/self, …/v1/sessions/list-sessions, …/v1/sessions/retrieve-details-about-an-existing-session.

/** GET /v3/organizations/{org_id}/sessions ("List Sessions"). */
export const V3_LIST_SESSIONS = {
  items: [
    {
      acus_consumed: 123,
      created_at: 123,
      org_id: '<string>',
      origin: 'webapp',
      pull_requests: [{ pr_state: '<string>', pr_url: '<string>' }],
      session_id: '<string>',
      status: 'new',
      tags: ['<string>'],
      updated_at: 123,
      url: '<string>',
      category: 'bug_fixing',
      child_session_ids: ['<string>'],
      is_archived: false,
      parent_session_id: '<string>',
      playbook_id: '<string>',
      service_user_id: '<string>',
      status_detail: 'working',
      structured_output: {},
      subcategory: '<string>',
      title: '<string>',
      user_id: '<string>'
    }
  ],
  end_cursor: '<string>',
  has_next_page: false,
  total: 123
}

/** GET /v3/organizations/{org_id}/sessions/{devin_id}/messages ("List session messages"). */
export const V3_LIST_MESSAGES = {
  items: [{ created_at: 123, event_id: '<string>', message: '<string>', source: 'devin' }],
  end_cursor: '<string>',
  has_next_page: false,
  total: 123
}

/** GET /v3/self for a service user (ServiceUserSelf). */
export const V3_SELF = {
  principal_type: 'service_user',
  org_id: '<string>',
  service_user_id: '<string>',
  service_user_name: '<string>'
}

/** GET /v1/sessions ("List sessions"). */
export const V1_LIST_SESSIONS = {
  sessions: [
    {
      created_at: '2023-11-07T05:31:56Z',
      session_id: '<string>',
      status: '<string>',
      updated_at: '2023-11-07T05:31:56Z',
      playbook_id: '<string>',
      pull_request: { url: '<string>' },
      requesting_user_email: '<string>',
      snapshot_id: '<string>',
      status_enum: 'working',
      structured_output: '<unknown>',
      tags: ['<string>'],
      title: '<string>'
    }
  ]
}

/** GET /v1/sessions/{session_id} ("Retrieve details about an existing session"); its example lists no message. */
export const V1_GET_SESSION = {
  created_at: '2023-11-07T05:31:56Z',
  session_id: '<string>',
  status: '<string>',
  updated_at: '2023-11-07T05:31:56Z',
  messages: [] as unknown[],
  playbook_id: '<string>',
  pull_request: { url: '<string>' },
  snapshot_id: '<string>',
  status_enum: 'working',
  structured_output: '<unknown>',
  tags: ['<string>'],
  title: '<string>'
}

/** POST /v1/sessions/{session_id}/message and POST /v3/…/sessions/{devin_id}/messages: the request body. */
export const SEND_MESSAGE = { message: 'Please proceed with the next step' }
