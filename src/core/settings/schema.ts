// One schema built two ways: strict checks a change; forgiving reads a file, a wrong value at its default (`.catch`),
// a wrong list entry dropped. An absent key takes its default in both: only a present, wrong value is damage.
import { z } from 'zod'
import { checkAccelerator, DEFAULT_SHORTCUT } from '../../shared/accelerator'
import { defaultConnectionName, parseBaseUrl } from '../../shared/base-url'
import { type Budget, BUDGET_PERIODS, budgetListProblem, budgetProblems } from '../../shared/budgets'
import {
  AWAY_AFTER_BOUNDS,
  DEFAULT_FORWARDING,
  FORWARD_EVENTS,
  type ForwardEventKind,
  MAX_TARGET_NAME,
  MAX_TARGETS,
  TARGET_KINDS,
  withEventsOffered
} from '../../shared/forward-target'
import { connectionIdProblem } from '../../shared/ids'
import { POLLING_BOUNDS, pollingProblems } from '../../shared/polling'
import {
  type Connection,
  DEFAULT_NOTIFICATION_PREFS,
  DEFAULT_POLLING_PREFS,
  type PollingPrefs,
  type Settings,
  type WatchedProject
} from '../../shared/settings'
import { isTimeOfDay, TIME_OF_DAY_PROBLEM } from '../../shared/time-of-day'
import { type UnitBudget, unitBudgetListProblem, unitBudgetProblems } from '../../shared/unit-costs'

/** 3: budgets per account and project, per day, month or in total (a project's budgetUsd became a total budget). */
export const SETTINGS_VERSION = 3

export const DEFAULT_WINDOW = { width: 420, height: 640, maximized: false } as const

/** How a schema reads what it is given: a strict one refuses a wrong value, a forgiving one drops it. */
function kit(forgiving: boolean) {
  const keep = <T>(item: z.ZodType<T>, value: unknown): [T] | [] => {
    const parsed = item.safeParse(value)
    return parsed.success ? [parsed.data] : []
  }
  return {
    /** A value, its default when absent (and, forgiving, when wrong). */
    or: <T extends z.ZodType>(schema: T, fallback: z.output<T>): z.ZodType<z.output<T>> =>
      (forgiving
        ? schema.catch(() => structuredClone(fallback))
        : schema.default(() => structuredClone(fallback as never))) as never,
    /** A list; forgiving, its valid entries. */
    list: <T>(item: z.ZodType<T>): z.ZodType<T[]> =>
      forgiving
        ? z
            .array(z.unknown())
            .catch([])
            .transform((list) => list.flatMap((value) => keep(item, value)))
        : z.array(item).default(() => []),
    /** A map by id; forgiving, its valid entries. */
    map: <T>(item: z.ZodType<T>): z.ZodType<Record<string, T>> =>
      forgiving
        ? z
            .record(z.string(), z.unknown())
            .catch({})
            .transform((map) =>
              Object.fromEntries(Object.entries(map).flatMap(([key, value]) => keep(item, value).map((v) => [key, v])))
            )
        : z.record(z.string(), item).default(() => ({}))
  }
}
export const strict = kit(false)
export const forgiving = kit(true)
export type Kit = typeof strict

/** Toggles, each at its default when absent (and, forgiving, when wrong). */
function toggles<T extends Record<string, boolean>>({ or }: Kit, defaults: T) {
  const entries = Object.entries(defaults).map(([key, on]) => [key, or(z.boolean(), on)])
  return Object.fromEntries(entries) as { [K in keyof T]: z.ZodType<boolean> }
}

const forwardTargetSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(MAX_TARGET_NAME),
  kind: z.enum(TARGET_KINDS),
  host: z.string().min(1).max(300),
  on: z.array(z.enum(FORWARD_EVENTS)).transform((on) => [...new Set(on)]),
  when: z.enum(['always', 'away']),
  paused: z.boolean().default(false),
  quietHours: z.boolean().default(false)
})

// A stored base URL needs only its shape: one that would send the key over plain http is kept, so
// the user can fix it, and the client refuses to use it meanwhile (src/shared/base-url.ts).
const httpUrl = z.string().refine((value) => parseBaseUrl(value).ok, 'must be an http(s) URL')
const hhmm = z.string().refine(isTimeOfDay, TIME_OF_DAY_PROBLEM)
// A connection's id is its account in the key store: one with ':' could name a forwarding target's entry.
const connectionId = z.string().superRefine((value, ctx) => {
  const problem = connectionIdProblem(value)
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
})
const bounded = ({ min, max }: { min: number; max: number }) => z.number().int().min(min).max(max)
/** The one polling rule (src/shared/polling.ts) as zod issues, each on its field. */
export function addPollingIssues(prefs: PollingPrefs, ctx: z.RefinementCtx): void {
  for (const [field, message] of Object.entries(pollingProblems(prefs)))
    ctx.addIssue({ code: 'custom', message, path: [field] })
}
/** One budget by the one rule (src/shared/budgets.ts), each problem on its field. */
const budgetSchema: z.ZodType<Budget> = z
  .object({
    id: z.string().min(1),
    projectId: z.string().min(1).nullable(),
    period: z.enum(BUDGET_PERIODS as [Budget['period'], ...Budget['period'][]]),
    limitUsd: z.number(),
    warnRatio: z.number()
  })
  .superRefine((budget, ctx) => {
    for (const [field, message] of Object.entries(budgetProblems(budget)))
      ctx.addIssue({ code: 'custom', message, path: [field === 'scope' ? 'projectId' : field] })
  })

/** A connection is kept whenever its id and base URL are; forgiving, its name and domain fall back. */
const connectionSchemaOf = ({ or }: Kit) =>
  z
    .object({
      id: connectionId,
      name: or(z.string().optional(), undefined),
      baseUrl: httpUrl,
      publishingDomain: or(z.string(), ''),
      service: or(z.string().min(1).optional(), undefined)
    })
    // A connection without a name is called by its host, as addConnection does.
    .transform(({ id, name, baseUrl, publishingDomain, service }): Connection => {
      const connection: Connection = { id, name: name ?? defaultConnectionName(baseUrl), baseUrl, publishingDomain }
      return service === undefined ? connection : { ...connection, service }
    })
export const connectionSchema = connectionSchemaOf(strict)

/** A watched project is kept whenever its id is; `addedAt` is the only default that depends on the time of reading. */
function watchedProjectSchemaAt(now: Date, { or }: Kit = strict): z.ZodType<WatchedProject> {
  return z.object({
    projectId: z.string().trim().min(1),
    name: or(z.string(), ''),
    softwareProductId: or(z.string().optional(), undefined),
    muted: or(z.boolean(), false),
    addedAt: or(z.string(), now.toISOString())
  })
}

/** The first entry of each id (a hand edit can repeat one): the window keys its lists by id. */
function firstOfEach<T>(idOf: (item: T) => string) {
  return (items: T[]): T[] => {
    const seen = new Set<string>()
    return items.filter((item) => !seen.has(idOf(item)) && seen.add(idOf(item)))
  }
}

/** The budgets of one account: strict, by the list rule; forgiving, the first per slot within the bound. */
function budgetListOf(forgivingList: boolean, { list }: Kit) {
  if (!forgivingList)
    return list(budgetSchema).superRefine((budgets, ctx) => {
      const problem = budgetListProblem(budgets)
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
    })
  return list(budgetSchema).transform((budgets) => {
    const kept: Budget[] = []
    for (const b of budgets) if (budgetListProblem([...kept, b]) === null) kept.push(b)
    return kept
  })
}

/** One per-unit budget by the one rule (src/shared/unit-costs.ts), each problem on its field. */
const unitBudgetSchema: z.ZodType<UnitBudget> = z
  .object({
    id: z.string().min(1),
    unit: z.string(),
    period: z.enum(BUDGET_PERIODS as [UnitBudget['period'], ...UnitBudget['period'][]]),
    limit: z.number(),
    warnRatio: z.number()
  })
  .superRefine((budget, ctx) => {
    for (const [field, message] of Object.entries(unitBudgetProblems(budget)))
      ctx.addIssue({ code: 'custom', message, path: [field] })
  })

/** An agent account's per-unit budgets: strict, by the list rule; forgiving, the first per slot within the bound. */
function unitBudgetListOf(forgivingList: boolean, { list }: Kit) {
  if (!forgivingList)
    return list(unitBudgetSchema).superRefine((budgets, ctx) => {
      const problem = unitBudgetListProblem(budgets)
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
    })
  return list(unitBudgetSchema).transform((budgets) => {
    const kept: UnitBudget[] = []
    for (const b of budgets) if (unitBudgetListProblem([...kept, b]) === null) kept.push(b)
    return kept
  })
}

const N = DEFAULT_NOTIFICATION_PREFS

const projectAttentionSchema = z.object({
  acknowledgedAt: z.string().nullable().default(null),
  failedTaskIds: z.array(z.string()).default(() => []),
  budgetCrossed: z.boolean().default(false),
  completedTaskIds: z.array(z.string()).default(() => []),
  tasks: z.record(z.string(), z.object({ name: z.string(), at: z.string() })).default(() => ({})),
  budgetCrossedAt: z.string().nullable().default(null)
})

const connectionNotificationsSchema = z.object({
  muted: z.boolean().default(false),
  pausedUntil: z.string().nullable().default(null)
})

/** The show/hide shortcut by the one rule (src/shared/accelerator.ts). */
const shortcutSchema = z
  .string()
  .refine((s) => checkAccelerator(s).ok, 'must be a shortcut such as CommandOrControl+Shift+A')

/** Every part but the watched projects (whose default date is the time of reading), built once per kit. */
function shapeOf(k: Kit, isForgiving: boolean) {
  const { or, list, map } = k
  const targets = list(forwardTargetSchema)
  return {
    version: or(z.literal(SETTINGS_VERSION), SETTINGS_VERSION),
    activeConnectionId: or(z.string().nullable().optional(), undefined),
    connections: list(connectionSchemaOf(k)).transform(firstOfEach((c) => c.id)),
    notifications: or(
      z.object({
        transitions: or(z.object(toggles(k, N.transitions)), N.transitions),
        quietHours: or(
          z.object({
            enabled: or(z.boolean(), N.quietHours.enabled),
            start: or(hhmm, N.quietHours.start),
            end: or(hhmm, N.quietHours.end)
          }),
          N.quietHours
        ),
        sound: or(z.boolean(), N.sound),
        pausedUntil: or(z.string().nullable(), null),
        unusualCost: or(z.boolean(), N.unusualCost)
      }),
      N
    ),
    polling: or(
      z
        .object({
          activeIntervalMs: or(bounded(POLLING_BOUNDS.activeIntervalMs), DEFAULT_POLLING_PREFS.activeIntervalMs),
          idleIntervalMs: or(bounded(POLLING_BOUNDS.idleIntervalMs), DEFAULT_POLLING_PREFS.idleIntervalMs),
          maxConcurrency: or(bounded(POLLING_BOUNDS.maxConcurrency), DEFAULT_POLLING_PREFS.maxConcurrency)
        })
        .superRefine(addPollingIssues),
      DEFAULT_POLLING_PREFS
    ),
    launchAtLogin: or(z.boolean(), false),
    theme: or(z.enum(['system', 'light', 'dark']), 'system'),
    window: or(
      z.object({
        // A position is only a hint: a wrong one is dropped, in both forms.
        x: z.number().optional().catch(undefined),
        y: z.number().optional().catch(undefined),
        width: or(z.number().positive(), DEFAULT_WINDOW.width),
        height: or(z.number().positive(), DEFAULT_WINDOW.height),
        maximized: or(z.boolean(), DEFAULT_WINDOW.maximized)
      }),
      DEFAULT_WINDOW
    ),
    ...toggles(k, { allowBasicTextSecrets: false, shortcutNoticeShown: false }),
    shortcut: or(shortcutSchema, DEFAULT_SHORTCUT),
    ...toggles(k, { pinned: false, hideDockIcon: true, checkForUpdates: true, trayNoticeShown: false }),
    // Per connection id, then per project id: losing what was unseen only costs a missed "attention".
    attention: map(map(projectAttentionSchema)),
    connectionNotifications: map(connectionNotificationsSchema),
    budgets: map(budgetListOf(isForgiving, k)),
    forwarding: or(
      z
        .object({
          // A dropped target's URL stays in the key store until it is removed.
          targets: isForgiving
            ? targets.transform((t) => t.slice(0, MAX_TARGETS))
            : z
                .array(forwardTargetSchema)
                .max(MAX_TARGETS)
                .default(() => []),
          awayAfterMs: or(
            z.number().int().min(AWAY_AFTER_BOUNDS.min).max(AWAY_AFTER_BOUNDS.max),
            DEFAULT_FORWARDING.awayAfterMs
          ),
          // Events this version does not know (a newer one's) are left out, not the whole section.
          eventsOffered: z
            .array(z.string())
            .transform((kinds) =>
              kinds.filter((k): k is ForwardEventKind => (FORWARD_EVENTS as readonly string[]).includes(k))
            )
            .optional()
            .catch(undefined)
        })
        .transform(withEventsOffered),
      DEFAULT_FORWARDING
    ),
    mutedAgentProjects: map(list(z.string().min(1))),
    unitBudgets: map(unitBudgetListOf(isForgiving, k))
  }
}
const SHAPES = { strict: shapeOf(strict, false), forgiving: shapeOf(forgiving, true) }

/** With no active connection given (or one that is gone), the first is active, as addConnection makes it; null stays. */
function withActive<T extends { activeConnectionId?: string | null | undefined; connections: Connection[] }>(
  settings: T
): Omit<T, 'activeConnectionId'> & { activeConnectionId: string | null } {
  const { activeConnectionId: active, connections } = settings
  const known = active === null || connections.some((c) => c.id === active)
  return { ...settings, activeConnectionId: known ? (active ?? null) : (connections[0]?.id ?? null) }
}

/** The settings file; `now` only fills `addedAt` of a watched project that lacks it. */
export function settingsSchemaAt(now: Date, isForgiving = false) {
  const k = isForgiving ? forgiving : strict
  const projects = k.list(watchedProjectSchemaAt(now, k)).transform(firstOfEach((p) => p.projectId))
  // In the file's order: the watched projects after the connections.
  const { version, activeConnectionId, connections, ...rest } = SHAPES[isForgiving ? 'forgiving' : 'strict']
  return z.object({ version, activeConnectionId, connections, watched: k.map(projects), ...rest }).transform(withActive)
}

/** For checking settings that are complete (an update's draft): no default's time matters there. */
export const settingsSchema = settingsSchemaAt(new Date(0))

/** Every part at its default: what a file with nothing in it reads as. */
export const defaultSettings = (): Settings => settingsSchema.parse({})

/** Dotted paths of validation issues, shortened to where a user would look ("watched.c2", not "watched.c2.3.name"). */
export function issuePaths(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>, limit = 8): string[] {
  const where = (path: ReadonlyArray<PropertyKey>) => {
    const index = path.findIndex((segment) => typeof segment === 'number')
    return (index === -1 ? path : path.slice(0, index)).slice(0, 3).map(String).join('.') || '(whole file)'
  }
  const paths = [...new Set(issues.map((issue) => where(issue.path)))]
  return paths.length > limit ? [...paths.slice(0, limit), `and ${paths.length - limit} more`] : paths
}

// Compile-time check that the schema and the shared type agree (the schema pins the version).
type Parsed = z.infer<typeof settingsSchema>
void [(parsed: Parsed): Settings => parsed, (settings: Settings): Omit<Parsed, 'version'> => settings]
