import { describe, expect, it } from 'vitest'
import { INVOKE_CHANNELS, type InvokeChannel } from '../../shared/ipc'
import { MAX_TASK_NAME_LENGTH, MAX_TASK_REQUIREMENT_LENGTH } from '../../shared/task-fields'
import { isInvokeChannel, requestSchemas } from './requests'

const id = 'proj_123'

/** For each channel: inputs that must pass, and inputs that must fail with a message naming the field. */
const cases: { [C in InvokeChannel]: { good: unknown[]; bad: [unknown, RegExp][] } } = {
  'app:get-state': {
    good: [undefined, null],
    bad: [
      [{}, /takes no request/],
      ['x', /takes no request/]
    ]
  },
  'connection:save': {
    good: [
      {
        connection: { name: 'Work', baseUrl: 'https://api.example.com', publishingDomain: 'apps.example.com' },
        apiKey: 'k-1'
      },
      { connection: { id: 'c1', name: 'Local', baseUrl: 'http://127.0.0.1:4000/', publishingDomain: '' } },
      { connection: { name: 'L', baseUrl: 'http://localhost:1/v1', publishingDomain: 'Apps.Example.COM' } },
      { connection: { name: 'Agents', baseUrl: '', publishingDomain: '', service: 'jules' }, apiKey: 'k' }
    ],
    bad: [
      [
        { connection: { name: 'W', baseUrl: 'http://api.example.com', publishingDomain: '' } },
        /connection\.baseUrl: The service address must use https/
      ],
      [{ connection: { name: 'W', baseUrl: 'ftp://x', publishingDomain: '' } }, /connection\.baseUrl/],
      [{ connection: { name: 'W', baseUrl: '', publishingDomain: '' } }, /connection\.baseUrl: must be a URL/],
      [
        { connection: { name: 'W', baseUrl: '', publishingDomain: '', service: 'nope' } },
        /connection\.service: must be a known service/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://u:p@x.com', publishingDomain: '' } },
        /connection\.baseUrl: The service address must not carry a user name or password/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com?a=1', publishingDomain: '' } },
        /connection\.baseUrl: The service address must not have a query/
      ],
      [{ connection: { name: '', baseUrl: 'https://x.com', publishingDomain: '' } }, /connection\.name/],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: 'bad domain' } },
        /connection\.publishingDomain/
      ],
      [
        {
          connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: `${'a'.repeat(60)}.`.repeat(5) + 'com' }
        },
        /connection\.publishingDomain/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '' }, apiKey: '   ' },
        /apiKey: must not be empty/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '' }, apiKey: 'a\u0000b' },
        /apiKey: must not contain control/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '' }, apiKey: 'k'.repeat(4097) },
        /apiKey: must be at most 4096/
      ],
      [
        { connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '', extra: 1 } },
        /connection: Unrecognized key/
      ],
      [{ connection: { name: 'W', baseUrl: 'https://x.com', publishingDomain: '' }, key: 'x' }, /Unrecognized key/]
    ]
  },
  'connection:remove': {
    good: [{ connectionId: 'c1' }],
    bad: [
      [{ connectionId: '' }, /connectionId: must not be empty/],
      [{}, /connectionId/]
    ]
  },
  'connection:set-notifications': {
    good: [
      { connectionId: 'c1', muted: true },
      { connectionId: 'c1', pauseMinutes: 60 },
      { connectionId: 'c1', pauseMinutes: null }
    ],
    bad: [
      [{ connectionId: 'c1', pauseMinutes: 0 }, /pauseMinutes: must be at least 1/],
      [{ connectionId: 'c1', muted: 'yes' }, /muted/],
      [{ muted: true }, /connectionId/]
    ]
  },
  'connection:activate': {
    good: [{ connectionId: 'c-2' }],
    bad: [[{ connectionId: '../x' }, /connectionId: may contain only/]]
  },
  'demo:start': { good: [undefined], bad: [[{ now: true }, /takes no request/]] },
  'project:get': {
    good: [{ projectId: id }, { projectId: 'a'.repeat(200) }],
    bad: [
      [{ projectId: 'a'.repeat(201) }, /projectId: must be at most 200/],
      [{ projectId: 'a/b' }, /projectId: may contain only/],
      [{ projectId: '..' }, /projectId/],
      [{ projectId: 7 }, /projectId/],
      [{ projectId: id, x: 1 }, /Unrecognized key/]
    ]
  },
  'project:create': {
    good: [
      { project: {}, watch: false },
      { project: { name: 'Linked' }, watch: true, returnToApp: true },
      {
        project: {
          software_product_id: 'sp_1',
          name: 'Shop',
          description: 'A shop\nwith lines',
          project_type: 'web',
          text_requirement: 'Build it',
          files_requirement: [
            { file_type: 'image', url: 'https://img.example.com/a.png' },
            { file_type: 'image', url: 'https://img.example.com/b.WEBP?v=2' }
          ],
          user_email: 'ann@example.com',
          return_url: 'agent-tray://back',
          ref_id: 'r-1'
        },
        watch: true
      }
    ],
    bad: [
      [{ project: {}, watch: true, returnToApp: 'yes' }, /returnToApp/],
      [{ project: {} }, /watch/],
      [{ project: { project_type: 'mobile' }, watch: true }, /project\.project_type: must be "web"/],
      [
        { project: { files_requirement: [{ file_type: 'pdf', url: 'https://x.com/a.pdf' }] }, watch: true },
        /project\.files_requirement\.0\.file_type/
      ],
      [
        { project: { files_requirement: [{ file_type: 'image', url: 'file:///etc/passwd' }] }, watch: true },
        /project\.files_requirement\.0\.url/
      ],
      [
        {
          project: { files_requirement: [{ file_type: 'image', url: 'https://img.example.com/page.html' }] },
          watch: true
        },
        /project\.files_requirement\.0\.url: must be the URL of an image/
      ],
      [{ project: { user_email: 'not-an-email' }, watch: true }, /project\.user_email/],
      [{ project: { return_url: 'javascript:alert(1)' }, watch: true }, /project\.return_url/],
      [{ project: { name: '   ' }, watch: true }, /project\.name: must not be empty/],
      [{ project: { name: 'a\nb' }, watch: true }, /project\.name: must be a single line/],
      [{ project: { id: 'x' }, watch: true }, /project: Unrecognized key/],
      [
        { project: { text_requirement: 'x'.repeat(100_001) }, watch: true },
        /project\.text_requirement: must be at most 100000/
      ]
    ]
  },
  'project:update': {
    good: [
      { projectId: id, update: { name: 'New' } },
      { projectId: id, update: { return_url: '', user_email: '' } }
    ],
    bad: [
      [{ projectId: id, update: {} }, /update: must change at least one field/],
      [{ projectId: id, update: { project_type: 'web' } }, /update: Unrecognized key/],
      [{ projectId: id, update: { prebuilt_url: 'https://x.com' } }, /Unrecognized key/],
      [{ projectId: id, update: { name: 5 } }, /update\.name/]
    ]
  },
  'project:watch': { good: [{ projectId: id }], bad: [[{ projectId: '' }, /projectId/]] },
  'project:unwatch': { good: [{ projectId: id }], bad: [[null, /expected object/i]] },
  'project:set-watch-options': {
    good: [{ projectId: id }, { projectId: id, muted: true, budgetUsd: 12.5 }, { projectId: id, budgetUsd: null }],
    bad: [
      [{ projectId: id, budgetUsd: -1 }, /budgetUsd: must be an amount in USD, not negative/],
      [{ projectId: id, budgetUsd: Number.NaN }, /budgetUsd/],
      [{ projectId: id, muted: 'yes' }, /muted/]
    ]
  },
  'budget:save': {
    good: [
      { budget: { projectId: null, period: 'month', limitUsd: 100, warnRatio: 0.8 } },
      { connectionId: id, budget: { id, projectId: id, period: 'day', limitUsd: 0, warnRatio: 0.5 } }
    ],
    bad: [
      [{ budget: { projectId: null, period: 'week', limitUsd: 1, warnRatio: 0.8 } }, /period/],
      [
        { budget: { projectId: null, period: 'day', limitUsd: -1, warnRatio: 0.8 } },
        /limitUsd: The limit must be an amount in USD/
      ],
      [
        { budget: { projectId: null, period: 'day', limitUsd: 1, warnRatio: 1 } },
        /warnRatio: The warning must be between 5 % and 99 %/
      ],
      [{ budget: { projectId: null, period: 'day', limitUsd: 1 } }, /warnRatio/],
      [{ budget: { projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8, extra: 1 } }, /Unrecognized/]
    ]
  },
  'budget:remove': {
    good: [{ budgetId: id }],
    bad: [
      [{}, /budgetId/],
      [{ budgetId: '' }, /budgetId/]
    ]
  },
  'unit-budget:save': {
    good: [
      { connectionId: id, budget: { unit: 'ACU', period: 'month', limit: 100, warnRatio: 0.8 } },
      { connectionId: id, budget: { id, unit: 'premium requests', period: 'total', limit: 0, warnRatio: 0.5 } }
    ],
    bad: [
      [{ budget: { unit: 'ACU', period: 'month', limit: 100, warnRatio: 0.8 } }, /connectionId/],
      [{ connectionId: id, budget: { unit: '', period: 'month', limit: 100, warnRatio: 0.8 } }, /unit is missing/],
      [{ connectionId: id, budget: { unit: 'ACU', period: 'week', limit: 100, warnRatio: 0.8 } }, /period/],
      [{ connectionId: id, budget: { unit: 'ACU', period: 'day', limit: -1, warnRatio: 0.8 } }, /not negative/],
      [{ connectionId: id, budget: { unit: 'ACU', period: 'day', limit: 1, warnRatio: 1 } }, /warning/],
      [
        { connectionId: id, budget: { unit: 'ACU', period: 'day', limit: 1, warnRatio: 0.8, limitUsd: 1 } },
        /limitUsd|Unrecognized/
      ]
    ]
  },
  'unit-budget:remove': {
    good: [{ connectionId: id, budgetId: id }],
    bad: [
      [{ budgetId: id }, /connectionId/],
      [{ connectionId: id, budgetId: '' }, /budgetId/]
    ]
  },
  'project:tasks': { good: [{ projectId: id }], bad: [[{ project: id }, /projectId|Unrecognized/]] },
  'project:task': {
    good: [{ projectId: id, taskId: 'task_1' }],
    bad: [
      [{ projectId: id }, /taskId/],
      [{ projectId: id, taskId: '../x' }, /taskId/]
    ]
  },
  'project:publish': {
    good: [{ projectId: id, hostname: 'my-app.apps.example.com' }],
    bad: [
      [{ projectId: id, hostname: '' }, /hostname: must not be empty/],
      [{ projectId: id, hostname: 'a'.repeat(254) }, /hostname: must be at most 253/]
    ]
  },
  'product:projects': {
    good: [
      { productId: 'prod-1', order: 'asc' },
      { connectionId: 'c1', productId: 'p', order: 'desc' }
    ],
    bad: [
      [{ productId: 'prod-1', order: 'newest' }, /order/],
      [{ productId: '', order: 'asc' }, /productId: must not be empty/],
      [{ connectionId: '../x', productId: 'p', order: 'asc' }, /connectionId: may contain only/]
    ]
  },
  'task:create': {
    good: [{ projectId: id, name: 'Add search', textRequirement: 'A search box\non the home page' }],
    bad: [
      [{ projectId: id, name: ' ', textRequirement: 'T' }, /name: must not be empty/],
      [{ projectId: id, name: 'N', textRequirement: '  ' }, /textRequirement: must not be empty/],
      [
        { projectId: id, name: 'x'.repeat(MAX_TASK_NAME_LENGTH + 1), textRequirement: 'T' },
        /name: must be at most 200 characters/
      ],
      [{ projectId: id, name: 'Two\nlines', textRequirement: 'T' }, /name: must be a single line/],
      [
        { projectId: id, name: 'N', textRequirement: 'x'.repeat(MAX_TASK_REQUIREMENT_LENGTH + 1) },
        /textRequirement: must be at most 100000/
      ],
      [{ projectId: id, name: 'N' }, /textRequirement/],
      [{ projectId: id, name: 'N', textRequirement: 'T', flow: 'x' }, /Unrecognized key/]
    ]
  },
  'task:details': {
    good: [{ taskId: 'task_1' }, { connectionId: 'c1', taskId: 'task_1' }],
    bad: [[{ taskId: 'a b' }, /taskId/]]
  },
  'task:focus': { good: [{ taskId: 'task_1' }, { taskId: null }], bad: [[{}, /taskId/]] },
  'settings:get': { good: [undefined], bad: [[{ a: 1 }, /takes no request/]] },
  'settings:update': {
    good: [
      {},
      { theme: 'dark', launchAtLogin: true },
      { shortcut: 'ctrl+alt+t', pinned: true, hideDockIcon: false },
      { polling: { activeIntervalMs: 5000, idleIntervalMs: 60000, maxConcurrency: 4 } },
      {
        notifications: {
          transitions: { started: false, completed: true, failed: true, cancelled: true, waiting: true },
          quietHours: { enabled: true, start: '22:00', end: '07:00' },
          sound: false,
          pausedUntil: '2030-01-01T00:00:00.000Z',
          unusualCost: true
        }
      }
    ],
    bad: [
      [{ theme: 'blue' }, /theme/],
      [{ shortcut: 'A' }, /shortcut: A shortcut needs CommandOrControl/],
      [{ shortcut: 'Hyper+A' }, /shortcut: "Hyper" is not a modifier/],
      [{ pinned: 'yes' }, /pinned/],
      [{ polling: { activeIntervalMs: 10, idleIntervalMs: 60000, maxConcurrency: 4 } }, /polling\.activeIntervalMs/],
      [
        { polling: { activeIntervalMs: 60000, idleIntervalMs: 5000, maxConcurrency: 4 } },
        /polling\.idleIntervalMs: must not be shorter/
      ],
      [
        {
          notifications: {
            transitions: { started: false, completed: true, failed: true, cancelled: true, waiting: true },
            quietHours: { enabled: true, start: '25:00', end: '07:00' },
            sound: false,
            pausedUntil: null
          }
        },
        /notifications\.quietHours\.start: must be a time/
      ],
      [
        {
          notifications: {
            transitions: { started: false, completed: true, failed: true },
            quietHours: { enabled: true, start: '22:00', end: '07:00' },
            sound: false,
            pausedUntil: 'tomorrow'
          }
        },
        /notifications\.transitions\.cancelled/
      ],
      [{ window: { width: 1 } }, /Unrecognized key/]
    ]
  },
  'monitor:poll-now': { good: [undefined, null], bad: [[0, /takes no request/]] },
  'monitor:pause-notifications': {
    good: [{ minutes: 1 }, { minutes: 1440 }, { minutes: null }],
    bad: [
      [{ minutes: 0 }, /minutes: must be at least 1/],
      [{ minutes: 1441 }, /minutes: must be at most 1440/],
      [{ minutes: 1.5 }, /minutes: must be a whole number/],
      [{}, /minutes/]
    ]
  },
  'attention:acknowledge': {
    good: [
      {},
      { projectId: 'p-1' },
      { projectId: 'p', taskId: 't' },
      { connectionId: 'c', projectId: 'p', budget: true },
      { connectionId: 'c' }
    ],
    bad: [
      [{ projectId: '' }, /projectId: must not be empty/],
      [{ projectId: '../x' }, /projectId: may contain only/],
      [{ taskId: 't' }, /an item needs its projectId/],
      [{ budget: true }, /an item needs its projectId/],
      [{ projectId: 'p', taskId: 't', budget: true }, /not both/],
      [{ projectId: 'p', budget: false }, /budget/],
      [{ projectId: 'p', step: 's' }, /Unrecognized key/],
      [undefined, /expected object/i]
    ]
  },
  'now:get': { good: [undefined, null], bad: [[{}, /takes no request/]] },
  'clipboard:write-text': {
    good: [{ text: 'https://shop.apps.example.com' }],
    bad: [
      [{ text: '' }, /text: must not be empty/],
      [{ text: 'a\nb' }, /text: must be a single line/],
      [{ text: 'x'.repeat(2049) }, /text: must be at most 2048/],
      [{ text: 'x', more: 1 }, /Unrecognized key/]
    ]
  },
  'clipboard:read-text': { good: [undefined, null], bad: [[{}, /takes no request/]] },
  'shell:open-external': {
    good: [{ url: 'https://example.com/x' }],
    bad: [
      [{ url: 'file:///etc/passwd' }, /url: must be an http\(s\) URL/],
      [{ url: 'javascript:alert(1)' }, /url/],
      [{ url: 'https://example.com', then: 'x' }, /Unrecognized key/]
    ]
  },
  'update:check': { good: [undefined], bad: [[{ force: true }, /takes no request/]] },
  'update:install': { good: [undefined], bad: [[{ now: true }, /takes no request/]] },
  'app:about': { good: [undefined], bad: [['x', /takes no request/]] },
  'app:copy-diagnostics': { good: [undefined], bad: [[{ withKey: true }, /takes no request/]] },
  'logs:open': { good: [undefined], bad: [[{ path: '/etc' }, /takes no request/]] },
  'app:report-error': {
    good: [
      {
        kind: 'error',
        message: 'TypeError: x is undefined',
        stack: 'TypeError: x\n    at f (app://agent-tray/index.js:1:2)'
      },
      { kind: 'unhandledrejection', message: 'a \u001b control is written out in the log, not refused' }
    ],
    bad: [
      [{ kind: 'log', message: 'any line' }, /kind/],
      [{ kind: 'error', message: 'x'.repeat(1001) }, /message: must be at most 1000 characters/],
      [{ kind: 'error', message: 'x', stack: 'y'.repeat(8001) }, /stack: must be at most 8000 characters/],
      [{ kind: 'error', message: 'x', level: 'info' }, /Unrecognized key/]
    ]
  },
  'costs:report': {
    good: [
      { grouping: 'day', stackBy: 'project' },
      {
        grouping: 'model',
        stackBy: 'model',
        since: '2026-02-01',
        until: '2026-02-28',
        projectIds: ['p1'],
        complete: true
      }
    ],
    bad: [
      [{ grouping: 'week', stackBy: 'project' }, /grouping/],
      [{ grouping: 'day', stackBy: 'task' }, /stackBy/],
      [{ grouping: 'day', stackBy: 'project', since: '2026-02-30' }, /since: must be a date as YYYY-MM-DD/],
      [
        { grouping: 'day', stackBy: 'project', since: '2026-03-10', until: '2026-03-01' },
        /^until: must not be before since \(2026-03-10\)$/
      ],
      [
        { grouping: 'day', stackBy: 'project', since: '2010-01-01', until: '2026-03-01' },
        /^since: must be 2016-02-23 or later: a range covers at most 3660 days$/
      ],
      [{ grouping: 'day', stackBy: 'project', projectIds: ['../x'] }, /projectIds/]
    ]
  },
  'costs:export-csv': {
    good: [{ grouping: 'task' }, { grouping: 'day', until: '2026-03-01' }],
    bad: [
      [{ grouping: 'task', path: '/etc/passwd' }, /Unrecognized key/],
      [{ grouping: 'day', until: '1 March' }, /until: must be a date/],
      [
        { grouping: 'day', since: '2026-03-02', until: '2026-03-01' },
        /^until: must not be before since \(2026-03-02\)$/
      ]
    ]
  },
  'forward:list': { good: [undefined], bad: [[{ all: true }, /takes no request/]] },
  'forward:add': {
    good: [
      { url: 'ntfys://ntfy.sh/topic-abc' },
      {
        url: 'https://hooks.example.com/in',
        name: 'Hooks',
        on: ['failed', 'budget'],
        when: 'always',
        quietHours: true,
        secret: 'signing-secret'
      }
    ],
    bad: [
      [{}, /url/],
      [{ url: '' }, /url: must not be empty/],
      [{ url: 'x'.repeat(2049) }, /url: must be at most 2048/],
      [{ url: 'ntfys://ntfy.sh/t', on: [] }, /on: must name at least one event/],
      [{ url: 'ntfys://ntfy.sh/t', on: ['failed', 'failed'] }, /on: must not repeat/],
      [{ url: 'ntfys://ntfy.sh/t', on: ['everything'] }, /on\.0/],
      [{ url: 'ntfys://ntfy.sh/t', when: 'never' }, /when/],
      [{ url: 'ntfys://ntfy.sh/t', name: 'a\nb' }, /name/],
      [{ url: 'ntfys://ntfy.sh/t', token: 'x' }, /Unrecognized key/]
    ]
  },
  'forward:test': {
    good: [{ targetId: id }],
    bad: [
      [{}, /targetId/],
      [{ targetId: '../x' }, /targetId/]
    ]
  },
  'forward:update': {
    good: [
      { targetId: id, paused: true },
      { targetId: id, on: ['completed'], when: 'away', quietHours: false },
      { targetId: id, secret: 'new-signing-secret-1' }
    ],
    bad: [
      [{ paused: true }, /targetId/],
      [{ targetId: id, secret: '' }, /secret: must not be empty/],
      [{ targetId: id, paused: 'yes' }, /paused/],
      [{ targetId: id, url: 'https://x.example/' }, /Unrecognized key/]
    ]
  },
  'forward:remove': { good: [{ targetId: id }], bad: [[{}, /targetId/]] },
  'forward:presence': { good: [undefined], bad: [[{ away: true }, /takes no request/]] },
  'agent:task': {
    good: [{ connectionId: 'c1', taskId: '3141' }],
    bad: [
      [{ connectionId: 'c1' }, /taskId/],
      [{ connectionId: 'c1', taskId: 'a\nb' }, /taskId: must be a single line/],
      [{ connectionId: 'c1', taskId: 't', extra: 1 }, /extra|Unrecognized/]
    ]
  },
  'agent:approve': {
    good: [{ connectionId: 'c1', taskId: 'sessions/1' }],
    bad: [
      [{ taskId: 't' }, /connectionId/],
      [{ connectionId: 'c1', taskId: '' }, /taskId: must not be empty/]
    ]
  },
  'agent:reply': {
    good: [
      { connectionId: 'c1', taskId: 't', message: 'Yes, go ahead.' },
      { connectionId: 'c1', taskId: 't', message: `  ${'a'.repeat(10_000)}  ` }
    ],
    bad: [
      [{ connectionId: 'c1', taskId: 't', message: '   ' }, /message: must not be empty/],
      [{ connectionId: 'c1', taskId: 't', message: 'a'.repeat(10_001) }, /message: must be at most 10000/],
      [{ connectionId: 'c1', taskId: 't', message: 'a\u0000' }, /message: must not contain control/],
      [{ connectionId: 'c1', taskId: 't' }, /message/]
    ]
  },
  'agent:mute-project': {
    good: [{ connectionId: 'c1', projectId: 'sources/github/octo/repo', muted: true }],
    bad: [
      [{ connectionId: 'c1', projectId: 'r', muted: 'yes' }, /muted/],
      [{ connectionId: 'c1', muted: true }, /projectId/]
    ]
  }
}

describe('requestSchemas', () => {
  it('has a schema for exactly the listed channels', () => {
    expect(Object.keys(requestSchemas).sort()).toEqual([...INVOKE_CHANNELS].sort())
  })

  for (const channel of INVOKE_CHANNELS) {
    describe(channel, () => {
      it.each(cases[channel].good.map((g) => [g]))('accepts %j', (input) => {
        const result = requestSchemas[channel].safeParse(input)
        expect(result.error?.issues).toBeUndefined()
        expect(result.success).toBe(true)
      })
      it.each(cases[channel].bad)('refuses %j', (input, message) => {
        const result = requestSchemas[channel].safeParse(input)
        expect(result.success).toBe(false)
        const text = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')
        expect(text).toMatch(message)
      })
    })
  }

  it('normalises a base URL and a publishing domain', () => {
    const parsed = requestSchemas['connection:save'].parse({
      connection: { name: 'L', baseUrl: ' http://localhost:4000/api/ ', publishingDomain: 'Apps.Example.COM' },
      apiKey: '  secret\n'
    })
    expect(parsed.connection.baseUrl).toBe('http://localhost:4000/api')
    expect(parsed.connection.publishingDomain).toBe('apps.example.com')
    expect(parsed.apiKey).toBe('secret')
  })

  it('tells channels from other keys', () => {
    expect(isInvokeChannel('project:get')).toBe(true)
    expect(isInvokeChannel('toString')).toBe(false)
    expect(isInvokeChannel('__proto__')).toBe(false)
    expect(isInvokeChannel('project:delete')).toBe(false)
  })
})
