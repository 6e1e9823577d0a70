// Every invoke request is checked before a handler runs: the window is not trusted. Strict objects and bounded
// strings; a missing channel fails the build through the mapped type of `requestSchemas`.
import { z } from 'zod'
import { checkAccelerator } from '../../shared/accelerator'
import { checkBaseUrl, MAX_BASE_URL_LENGTH } from '../../shared/base-url'
import { budgetProblem } from '../../shared/budget'
import { BUDGET_PERIODS, type BudgetPeriod, budgetProblems } from '../../shared/budgets'
import { LINE_CONTROL, TEXT_CONTROL } from '../../shared/controls'
import { costRangeProblem } from '../../shared/cost-range'
import { COST_GROUPINGS, COST_STACKS } from '../../shared/cost-report'
import { MAX_WINDOW_ERROR_MESSAGE, MAX_WINDOW_ERROR_STACK } from '../../shared/desktop'
import { FORWARD_EVENTS, MAX_TARGET_NAME } from '../../shared/forward-target'
import { publishingDomainProblem } from '../../shared/hostname'
import { idProblem } from '../../shared/ids'
import { isImageUrl } from '../../shared/image-url'
import type { InvokeChannel, RequestOf } from '../../shared/ipc'
import { isEmail, isReturnUrl, MAX_EMAIL_LENGTH } from '../../shared/project-fields'
import { MAX_REPLY_LENGTH } from '../../shared/provider'
import { taskNameProblem, taskRequirementProblem } from '../../shared/task-fields'
import { isTimeOfDay, TIME_OF_DAY_PROBLEM } from '../../shared/time-of-day'
import { MAX_UNIT_NAME, unitBudgetProblems } from '../../shared/unit-costs'
import { isSafeExternalUrl } from '../../shared/url'
import { MAX_PAUSE_MINUTES } from '../notify/pause'
import { serviceDescriptor } from '../providers/registry'
import { addPollingIssues } from '../settings/schema'

/** A string checked by one of src/shared's rules (`problem` says why not, or null). */
const ruled = (problem: (value: string) => string | null) =>
  z.string().superRefine((value, ctx) => {
    const why = problem(value)
    if (why !== null) ctx.addIssue({ code: 'custom', message: why })
  })

/** A pause of notifications, in minutes (core/notify/pause.ts). */
const pauseMinutes = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_PAUSE_MINUTES, `must be at most ${MAX_PAUSE_MINUTES} (a day)`)

/** Ids of projects, tasks, connections: the one rule of src/shared/ids.ts. */
export const idSchema = ruled(idProblem)

/** Free text kept on one record: no control characters except newlines and tabs. */
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !TEXT_CONTROL.test(s), 'must not contain control characters')

/** One line of text, e.g. a name. */
const line = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !LINE_CONTROL.test(s), 'must be a single line without control characters')

const nonBlankLine = (max: number) => line(max).refine((s) => s.trim() !== '', 'must not be empty')

/** The service's base URL, by the one rule (src/shared/base-url.ts): shape and transport. */
export const baseUrlSchema = z.string().transform((s, ctx) => {
  const checked = checkBaseUrl(s)
  if (checked.ok) return checked.baseUrl
  ctx.addIssue({ code: 'custom', message: checked.problem })
  return z.NEVER
})

/** A base URL by the same rule, or empty (a service's default address, filled in by the handler). */
const baseUrlOrEmpty = z.string().transform((s, ctx) => {
  if (s === '') return s
  const checked = checkBaseUrl(s)
  if (checked.ok) return checked.baseUrl
  ctx.addIssue({ code: 'custom', message: checked.problem })
  return z.NEVER
})

/** The connection's publishing domain (src/shared/hostname.ts), lowercased; empty while unknown. */
const publishingDomainSchema = z
  .string()
  .transform((s) => s.toLowerCase())
  .superRefine((s, ctx) => {
    const problem = s === '' ? null : publishingDomainProblem(s)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

/** An http(s) URL a browser may open. */
const webUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine(isSafeExternalUrl, 'must be an http(s) URL')

/** Where the prebuilt interface sends the user back (src/shared/project-fields.ts); empty clears. */
const returnUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => s === '' || isReturnUrl(s), 'must be an absolute URL such as https://example.com/back (or empty)')

/** Empty clears the field; otherwise an e-mail address (src/shared/project-fields.ts). */
const email = z
  .string()
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .refine((s) => s === '' || isEmail(s), 'must be an e-mail address such as ann@example.com (or empty)')

const apiKeySchema = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .max(4096, 'must be at most 4096 characters')
      .refine((s) => !LINE_CONTROL.test(s), 'must not contain control characters')
  )

/** The events a forwarding target gets: at least one, each once. */
const forwardEvents = z
  .array(z.enum(FORWARD_EVENTS))
  .min(1, 'must name at least one event')
  .max(FORWARD_EVENTS.length)
  .refine((a) => new Set(a).size === a.length, 'must not repeat an event')

const noRequest = z
  .unknown()
  .refine((v) => v === undefined || v === null, 'this channel takes no request')
  .transform((): void => undefined)

const onConnection = { connectionId: idSchema.optional() }
const projectIdRequest = z.strictObject({ ...onConnection, projectId: idSchema })

const fileRequirement = z.strictObject({
  file_type: z.literal('image', { error: 'must be "image" (only images are accepted for now)' }),
  url: webUrl.refine(
    isImageUrl,
    'must be the URL of an image (a path ending in .png, .jpg, .jpeg, .gif, .webp, .svg, .avif, .bmp or .ico)'
  )
})

export const projectCreateSchema = z.strictObject({
  software_product_id: idSchema.optional(),
  name: nonBlankLine(200).optional(),
  description: text(10_000).optional(),
  project_type: z.literal('web', { error: 'must be "web"' }).optional(),
  text_requirement: text(100_000).optional(),
  files_requirement: z.array(fileRequirement).max(20, 'must list at most 20 files').optional(),
  user_email: email.optional(),
  return_url: returnUrl.optional(),
  ref_id: line(200).optional()
})

/** PATCH body: only the five fields the interface allows, and at least one of them. */
export const projectUpdateSchema = z
  .strictObject({
    name: nonBlankLine(200).optional(),
    description: text(10_000).optional(),
    user_email: email.optional(),
    return_url: returnUrl.optional(),
    ref_id: line(200).optional()
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), 'must change at least one field')

const hhmm = z.string().refine(isTimeOfDay, TIME_OF_DAY_PROBLEM)

const notificationPrefsSchema = z.strictObject({
  transitions: z.strictObject({
    started: z.boolean(),
    completed: z.boolean(),
    failed: z.boolean(),
    cancelled: z.boolean(),
    waiting: z.boolean()
  }),
  quietHours: z.strictObject({ enabled: z.boolean(), start: hhmm, end: hhmm }),
  sound: z.boolean(),
  pausedUntil: z.iso.datetime({ offset: true, error: 'must be an ISO date-time or null' }).nullable(),
  unusualCost: z.boolean()
})

const pollingPrefsSchema = z
  .strictObject({ activeIntervalMs: z.number(), idleIntervalMs: z.number(), maxConcurrency: z.number() })
  .superRefine(addPollingIssues)

/** A shortcut by the one rule (src/shared/accelerator.ts), in its canonical spelling. */
const shortcutSchema = z.string().transform((s, ctx) => {
  const checked = checkAccelerator(s)
  if (checked.ok) return checked.accelerator
  ctx.addIssue({ code: 'custom', message: checked.problem })
  return z.NEVER
})

export const settingsUpdateSchema = z.strictObject({
  notifications: notificationPrefsSchema.optional(),
  polling: pollingPrefsSchema.optional(),
  launchAtLogin: z.boolean().optional(),
  theme: z.enum(['system', 'light', 'dark']).optional(),
  allowBasicTextSecrets: z.boolean().optional(),
  shortcut: shortcutSchema.optional(),
  pinned: z.boolean().optional(),
  hideDockIcon: z.boolean().optional(),
  checkForUpdates: z.boolean().optional()
})

/** One item (a task's or the budget crossing) needs its project; a task and the budget are not one item. */
const acknowledgementSchema = z
  .strictObject({
    connectionId: idSchema.optional(),
    projectId: idSchema.optional(),
    taskId: idSchema.optional(),
    budget: z.literal(true).optional()
  })
  .refine(
    (a) => a.projectId !== undefined || (a.taskId === undefined && a.budget === undefined),
    'an item needs its projectId'
  )
  .refine((a) => a.taskId === undefined || a.budget === undefined, 'name a task or the budget, not both')

const budgetUsd = z
  .number()
  .nullable()
  .superRefine((value, ctx) => {
    const problem = budgetProblem(value)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

const costDay = z.string().max(10, 'must be a date as YYYY-MM-DD')
const costsRequest = {
  since: costDay.optional(),
  until: costDay.optional(),
  grouping: z.enum(COST_GROUPINGS),
  projectIds: z.array(idSchema).max(1000, 'must list at most 1000 projects').optional()
}
/** The range by the one rule (src/shared/cost-range.ts); today is the handler's to check, by its clock. */
const checkCostRange = (
  range: { since?: string | undefined; until?: string | undefined },
  ctx: z.RefinementCtx
): void => {
  const found = costRangeProblem(range, null)
  if (found !== null) ctx.addIssue({ code: 'custom', message: found.problem, path: [found.field] })
}
/** A budget by the one rule (src/shared/budgets.ts), each problem on its field. */
const budgetInputSchema = z
  .strictObject({
    id: idSchema.optional(),
    projectId: idSchema.nullable(),
    period: z.enum(BUDGET_PERIODS as [BudgetPeriod, ...BudgetPeriod[]]),
    limitUsd: z.number(),
    warnRatio: z.number()
  })
  .superRefine((budget, ctx) => {
    for (const [field, message] of Object.entries(budgetProblems(budget)))
      ctx.addIssue({ code: 'custom', message, path: [field === 'scope' ? 'projectId' : field] })
  })

/** A per-unit budget by the one rule (src/shared/unit-costs.ts); whether the account reports its unit is the
 * handler's to check. */
const unitBudgetInputSchema = z
  .strictObject({
    id: idSchema.optional(),
    unit: z.string().max(MAX_UNIT_NAME),
    period: z.enum(BUDGET_PERIODS as [BudgetPeriod, ...BudgetPeriod[]]),
    limit: z.number(),
    warnRatio: z.number()
  })
  .superRefine((budget, ctx) => {
    for (const [field, message] of Object.entries(unitBudgetProblems(budget)))
      ctx.addIssue({ code: 'custom', message, path: [field] })
  })

/** A service's own id of a task or repository ("owner/repo" on GitHub): one line, bounded; sent only as a path
 * segment the adapter encodes. */
const agentTaskId = nonBlankLine(512)
const agentTaskRequest = z.strictObject({ connectionId: idSchema, taskId: agentTaskId })

/** A service by its descriptor's kind (core/providers/registry.ts). */
const serviceKind = z.string().refine((kind) => serviceDescriptor(kind) !== undefined, 'must be a known service')

export const requestSchemas: { [C in InvokeChannel]: z.ZodType<RequestOf<C>> } = {
  'app:get-state': noRequest,
  'connection:save': z.strictObject({
    connection: z
      .strictObject({
        id: idSchema.optional(),
        name: nonBlankLine(100),
        // Empty only with a service named: its default address (the handler fills it in).
        baseUrl: baseUrlOrEmpty,
        publishingDomain: publishingDomainSchema,
        service: serviceKind.optional()
      })
      .refine((c) => c.baseUrl !== '' || c.service !== undefined, {
        message: 'must be a URL such as https://api.example.com',
        path: ['baseUrl']
      }),
    apiKey: apiKeySchema.optional()
  }),
  'connection:remove': z.strictObject({ connectionId: idSchema }),
  'connection:activate': z.strictObject({ connectionId: idSchema }),
  'connection:set-notifications': z.strictObject({
    connectionId: idSchema,
    muted: z.boolean().optional(),
    pauseMinutes: pauseMinutes.nullable().optional()
  }),
  'demo:start': noRequest,
  'project:get': projectIdRequest,
  'project:create': z.strictObject({
    ...onConnection,
    project: projectCreateSchema,
    watch: z.boolean(),
    returnToApp: z.boolean().optional()
  }),
  'project:update': z.strictObject({ ...onConnection, projectId: idSchema, update: projectUpdateSchema }),
  'project:watch': projectIdRequest,
  'project:unwatch': projectIdRequest,
  'project:set-watch-options': z.strictObject({
    ...onConnection,
    projectId: idSchema,
    muted: z.boolean().optional(),
    budgetUsd: budgetUsd.optional()
  }),
  'budget:save': z.strictObject({ ...onConnection, budget: budgetInputSchema }),
  'budget:remove': z.strictObject({ ...onConnection, budgetId: idSchema }),
  'unit-budget:save': z.strictObject({ connectionId: idSchema, budget: unitBudgetInputSchema }),
  'unit-budget:remove': z.strictObject({ connectionId: idSchema, budgetId: idSchema }),
  'project:tasks': projectIdRequest,
  'project:task': z.strictObject({ ...onConnection, projectId: idSchema, taskId: idSchema }),
  'project:publish': z.strictObject({
    ...onConnection,
    projectId: idSchema,
    hostname: z.string().min(1, 'must not be empty').max(253, 'must be at most 253 characters')
  }),
  'product:projects': z.strictObject({ ...onConnection, productId: idSchema, order: z.enum(['asc', 'desc']) }),
  'task:create': z.strictObject({
    ...onConnection,
    projectId: idSchema,
    name: ruled(taskNameProblem),
    textRequirement: ruled(taskRequirementProblem)
  }),
  'task:details': z.strictObject({ ...onConnection, taskId: idSchema }),
  'task:focus': z.strictObject({ ...onConnection, taskId: idSchema.nullable() }),
  'settings:get': noRequest,
  'settings:update': settingsUpdateSchema,
  'monitor:poll-now': noRequest,
  'monitor:pause-notifications': z.strictObject({
    minutes: pauseMinutes.nullable()
  }),
  'attention:acknowledge': acknowledgementSchema,
  'now:get': noRequest,
  'shell:open-external': z.strictObject({ url: webUrl }),
  'clipboard:write-text': z.strictObject({ text: nonBlankLine(2048) }),
  'clipboard:read-text': noRequest,
  'update:check': noRequest,
  'update:install': noRequest,
  'app:about': noRequest,
  'app:copy-diagnostics': noRequest,
  'logs:open': noRequest,
  // Text for the log only: bounded, and control characters are written out there, not refused here.
  'app:report-error': z.strictObject({
    kind: z.enum(['error', 'unhandledrejection']),
    message: z.string().max(MAX_WINDOW_ERROR_MESSAGE, `must be at most ${MAX_WINDOW_ERROR_MESSAGE} characters`),
    stack: z.string().max(MAX_WINDOW_ERROR_STACK, `must be at most ${MAX_WINDOW_ERROR_STACK} characters`).optional()
  }),
  'costs:report': z
    .strictObject({ ...costsRequest, stackBy: z.enum(COST_STACKS), complete: z.boolean().optional() })
    .superRefine(checkCostRange),
  'costs:export-csv': z.strictObject(costsRequest).superRefine(checkCostRange),
  'forward:list': noRequest,
  // The URL is recognised by the handler (core/forward/target-url.ts), whose problems never repeat it.
  'forward:add': z.strictObject({
    url: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_BASE_URL_LENGTH, `must be at most ${MAX_BASE_URL_LENGTH} characters`),
    name: nonBlankLine(MAX_TARGET_NAME).optional(),
    on: forwardEvents.optional(),
    when: z.enum(['always', 'away']).optional(),
    quietHours: z.boolean().optional(),
    secret: z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters').optional()
  }),
  'forward:test': z.strictObject({ targetId: idSchema }),
  'forward:update': z
    .strictObject({
      targetId: idSchema,
      paused: z.boolean().optional(),
      on: forwardEvents.optional(),
      when: z.enum(['always', 'away']).optional(),
      quietHours: z.boolean().optional(),
      secret: z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters').optional(),
      generateSecret: z.literal(true).optional()
    })
    .refine((r) => r.secret === undefined || r.generateSecret === undefined, 'give a secret or ask for one, not both'),
  'forward:remove': z.strictObject({ targetId: idSchema }),
  'forward:presence': noRequest,
  'agent:task': agentTaskRequest,
  'agent:approve': agentTaskRequest,
  'agent:reply': z.strictObject({
    connectionId: idSchema,
    taskId: agentTaskId,
    message: z
      .string()
      .transform((s) => s.trim())
      .pipe(text(MAX_REPLY_LENGTH).min(1, 'must not be empty'))
  }),
  'agent:mute-project': z.strictObject({ connectionId: idSchema, projectId: agentTaskId, muted: z.boolean() })
}

export function isInvokeChannel(channel: string): channel is InvokeChannel {
  return Object.prototype.hasOwnProperty.call(requestSchemas, channel)
}

/** A person-readable summary of what was wrong, naming each field; never echoes the input. */
export function describeIssues(channel: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.')
    return path === '' ? issue.message : `${path}: ${issue.message}`
  })
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : ''
  return `Invalid request for ${channel}: ${parts.join('; ')}${more}.`
}
