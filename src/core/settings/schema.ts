// The settings file's schema (version 3), in two forms: `strict` says whether a file is valid;
// `lenient` never fails and keeps every part that is valid, putting defaults in the rest, so a
// damaged file loses only what is damaged (watched projects first of all).
// In both, a key that is ABSENT takes its default: a file from an older build (or a hand edit)
// that lacks a newer optional key is valid, not damaged. Only a present, wrong value is damage.
import { z } from 'zod'
import { checkAccelerator, DEFAULT_SHORTCUT } from '../../shared/accelerator'
import { defaultConnectionName, parseBaseUrl } from '../../shared/base-url'
import { type Budget, BUDGET_PERIODS, budgetListProblem, budgetProblems } from '../../shared/budgets'
import {
  AWAY_AFTER_BOUNDS,
  DEFAULT_FORWARDING,
  FORWARD_EVENTS,
  MAX_TARGET_NAME,
  MAX_TARGETS,
  TARGET_KINDS
} from '../../shared/forwarding'
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

/** 3: budgets per account and project, per day, month or in total (a project's budgetUsd became a total budget). */
export const SETTINGS_VERSION = 3

export const DEFAULT_WINDOW = { width: 420, height: 640, maximized: false } as const

export function defaultSettings(): Settings {
  return {
    version: SETTINGS_VERSION,
    activeConnectionId: null,
    connections: [],
    watched: {},
    notifications: structuredClone(DEFAULT_NOTIFICATION_PREFS),
    polling: { ...DEFAULT_POLLING_PREFS },
    launchAtLogin: false,
    theme: 'system',
    window: { ...DEFAULT_WINDOW },
    allowBasicTextSecrets: false,
    shortcutNoticeShown: false,
    shortcut: DEFAULT_SHORTCUT,
    pinned: false,
    hideDockIcon: true,
    checkForUpdates: true,
    trayNoticeShown: false,
    connectionNotifications: {},
    attention: {},
    budgets: {},
    forwarding: structuredClone(DEFAULT_FORWARDING)
  }
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
const awayAfterSchema = z.number().int().min(AWAY_AFTER_BOUNDS.min).max(AWAY_AFTER_BOUNDS.max)
const forwardingSchema = z.object({
  targets: z
    .array(forwardTargetSchema)
    .max(MAX_TARGETS)
    .default(() => []),
  awayAfterMs: awayAfterSchema.default(DEFAULT_FORWARDING.awayAfterMs)
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
const activeInterval = bounded(POLLING_BOUNDS.activeIntervalMs)
const idleInterval = bounded(POLLING_BOUNDS.idleIntervalMs)
const concurrency = bounded(POLLING_BOUNDS.maxConcurrency)
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
const budgetListSchema = z.array(budgetSchema).superRefine((list, ctx) => {
  const problem = budgetListProblem(list)
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
})

/** A connection without a name is called by its host, as addConnection does. */
function named(connection: {
  id: string
  name?: string | undefined
  baseUrl: string
  publishingDomain: string
}): Connection {
  const { id, name, baseUrl, publishingDomain } = connection
  return { id, name: name ?? defaultConnectionName(baseUrl), baseUrl, publishingDomain }
}

export const connectionSchema = z
  .object({
    id: connectionId,
    name: z.string().optional(),
    baseUrl: httpUrl,
    publishingDomain: z.string().default('')
  })
  .transform(named)

/** `addedAt` is the only default that depends on the time of reading. */
export function watchedProjectSchemaAt(now: Date) {
  return z.object({
    projectId: z.string().min(1),
    name: z.string().default(''),
    softwareProductId: z.string().optional(),
    muted: z.boolean().default(false),
    addedAt: z.string().default(() => now.toISOString())
  })
}

const DEFAULTS = defaultSettings()
const N = DEFAULTS.notifications

const transitionsSchema = z.object({
  started: z.boolean().default(N.transitions.started),
  completed: z.boolean().default(N.transitions.completed),
  failed: z.boolean().default(N.transitions.failed),
  cancelled: z.boolean().default(N.transitions.cancelled)
})

const quietHoursSchema = z.object({
  enabled: z.boolean().default(N.quietHours.enabled),
  start: hhmm.default(N.quietHours.start),
  end: hhmm.default(N.quietHours.end)
})

const notificationsSchema = z.object({
  transitions: transitionsSchema.default(() => ({ ...N.transitions })),
  quietHours: quietHoursSchema.default(() => ({ ...N.quietHours })),
  sound: z.boolean().default(N.sound),
  pausedUntil: z.string().nullable().default(null),
  unusualCost: z.boolean().default(N.unusualCost)
})

const pollingSchema = z
  .object({
    activeIntervalMs: activeInterval.default(DEFAULTS.polling.activeIntervalMs),
    idleIntervalMs: idleInterval.default(DEFAULTS.polling.idleIntervalMs),
    maxConcurrency: concurrency.default(DEFAULTS.polling.maxConcurrency)
  })
  .superRefine(addPollingIssues)

const windowSchema = z.object({
  x: z.number().optional(),
  y: z.number().optional(),
  width: z.number().positive().default(DEFAULTS.window.width),
  height: z.number().positive().default(DEFAULTS.window.height),
  maximized: z.boolean().default(DEFAULTS.window.maximized)
})

const themeSchema = z.enum(['system', 'light', 'dark'])

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

/** Per connection id, then per project id. */
const attentionSchema = z.record(z.string(), z.record(z.string(), projectAttentionSchema))

/** With no active connection named in the file, the first one is active (as addConnection makes it). */
function withActive<T extends { activeConnectionId?: string | null | undefined; connections: Connection[] }>(
  settings: T
): Omit<T, 'activeConnectionId'> & { activeConnectionId: string | null } {
  return {
    ...settings,
    activeConnectionId:
      settings.activeConnectionId === undefined ? (settings.connections[0]?.id ?? null) : settings.activeConnectionId
  }
}

/** The valid settings file; `now` only fills `addedAt` of a watched project that lacks it. */
export function settingsSchemaAt(now: Date) {
  return z
    .object({
      version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
      activeConnectionId: z.string().nullable().optional(),
      connections: z.array(connectionSchema).default(() => []),
      // A project is watched once per connection: the window keys its lists by project id.
      watched: z.record(z.string(), z.array(watchedProjectSchemaAt(now)).transform(dedupeProjects)).default(() => ({})),
      notifications: notificationsSchema.default(() => structuredClone(N)),
      polling: pollingSchema.default(() => ({ ...DEFAULTS.polling })),
      launchAtLogin: z.boolean().default(false),
      theme: themeSchema.default('system'),
      window: windowSchema.default(() => ({ ...DEFAULT_WINDOW })),
      allowBasicTextSecrets: z.boolean().default(false),
      shortcutNoticeShown: z.boolean().default(false),
      shortcut: shortcutSchema.default(DEFAULT_SHORTCUT),
      pinned: z.boolean().default(false),
      hideDockIcon: z.boolean().default(true),
      checkForUpdates: z.boolean().default(true),
      trayNoticeShown: z.boolean().default(false),
      attention: attentionSchema.default(() => ({})),
      connectionNotifications: z.record(z.string(), connectionNotificationsSchema).default(() => ({})),
      budgets: z.record(z.string(), budgetListSchema).default(() => ({})),
      forwarding: forwardingSchema.default(() => structuredClone(DEFAULT_FORWARDING))
    })
    .transform(withActive)
}

/** For checking settings that are complete (an update's draft): no default's time matters there. */
export const settingsSchema = settingsSchemaAt(new Date(0))

/** Ciphertexts of API keys under Electron's safeStorage, by connection id (base64). */
export const safeStorageKeysSchema = z.record(z.string(), z.string())

// Compile-time check that the schema and the shared type agree (the schema pins the version).
type Parsed = z.infer<typeof settingsSchema>
const _parsedIsSettings = (parsed: Parsed): Settings => parsed
const _settingsIsParsed = (settings: Settings): Omit<Parsed, 'version'> => settings

/** Keeps the elements of an array that pass `item`, drops the others; anything else (or nothing) becomes []. */
function lenientArray<T>(item: z.ZodType<T>) {
  return z
    .unknown()
    .optional()
    .transform((value): T[] =>
      Array.isArray(value)
        ? value.flatMap((element) => {
            const parsed = item.safeParse(element)
            return parsed.success ? [parsed.data] : []
          })
        : []
    )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Keeps the entries of a record that pass `item`; anything else (or nothing) becomes {}. */
export function lenientRecord<T>(item: z.ZodType<T>) {
  return z
    .unknown()
    .optional()
    .transform((value): Record<string, T> => {
      const out: Record<string, T> = {}
      if (!isRecord(value)) return out
      for (const [key, element] of Object.entries(value)) {
        const parsed = item.safeParse(element)
        if (parsed.success) out[key] = parsed.data
      }
      return out
    })
}

/** A watched project is kept whenever its id is readable; its other fields fall back one by one. */
function lenientWatchedProject(now: Date): z.ZodType<WatchedProject> {
  return z.object({
    projectId: z.string().trim().min(1),
    name: z.string().catch(''),
    softwareProductId: z.string().optional().catch(undefined),
    muted: z.boolean().catch(false),
    addedAt: z.string().catch(() => now.toISOString())
  })
}

/** A connection is kept whenever its id (by the connection id rule) and base URL are readable; its name and domain fall back. */
const lenientConnection = z
  .object({
    id: connectionId,
    name: z.string().optional().catch(undefined),
    baseUrl: httpUrl,
    publishingDomain: z.string().catch('')
  })
  .transform(named)

/** The first entry of each project id (a hand edit, or damage that turned one id into another's). */
function dedupeProjects(projects: WatchedProject[]): WatchedProject[] {
  const seen = new Set<string>()
  return projects.filter((project) => !seen.has(project.projectId) && seen.add(project.projectId))
}

function firstPerSlot(list: Budget[]): Budget[] {
  const kept: Budget[] = []
  // budgetListProblem holds the bound too: past it, no budget is kept.
  for (const b of list) if (budgetListProblem([...kept, b]) === null) kept.push(b)
  return kept
}

/** Never fails: every field that is valid is kept, the rest take their defaults. */
export function lenientSettingsSchema(now: Date): z.ZodType<Settings> {
  const d = defaultSettings()
  const n = d.notifications
  return z
    .object({
      version: z
        .unknown()
        .optional()
        .transform(() => SETTINGS_VERSION),
      activeConnectionId: z.string().nullable().catch(null),
      connections: lenientArray(lenientConnection).transform((list) => {
        const seen = new Set<string>()
        return list.filter((connection) => !seen.has(connection.id) && seen.add(connection.id))
      }),
      watched: lenientRecord(lenientArray(lenientWatchedProject(now)).transform(dedupeProjects)),
      notifications: z
        .object({
          transitions: z
            .object({
              started: z.boolean().catch(n.transitions.started),
              completed: z.boolean().catch(n.transitions.completed),
              failed: z.boolean().catch(n.transitions.failed),
              cancelled: z.boolean().catch(n.transitions.cancelled)
            })
            .catch(() => ({ ...n.transitions })),
          quietHours: z
            .object({
              enabled: z.boolean().catch(n.quietHours.enabled),
              start: hhmm.catch(n.quietHours.start),
              end: hhmm.catch(n.quietHours.end)
            })
            .catch(() => ({ ...n.quietHours })),
          sound: z.boolean().catch(n.sound),
          pausedUntil: z.string().nullable().catch(null),
          unusualCost: z.boolean().catch(n.unusualCost)
        })
        .catch(() => structuredClone(n)),
      polling: z
        .object({
          activeIntervalMs: activeInterval.catch(d.polling.activeIntervalMs),
          idleIntervalMs: idleInterval.catch(d.polling.idleIntervalMs),
          maxConcurrency: concurrency.catch(d.polling.maxConcurrency)
        })
        // Each valid alone, idle shorter than active breaks the rule: idle is raised to active, as
        // otherwise the repaired file would be invalid again (and kept aside again on every start).
        .transform((p) => ({ ...p, idleIntervalMs: Math.max(p.idleIntervalMs, p.activeIntervalMs) }))
        .catch(() => ({ ...d.polling })),
      launchAtLogin: z.boolean().catch(false),
      theme: themeSchema.catch('system'),
      window: z
        .object({
          x: z.number().optional().catch(undefined),
          y: z.number().optional().catch(undefined),
          width: z.number().positive().catch(d.window.width),
          height: z.number().positive().catch(d.window.height),
          maximized: z.boolean().catch(false)
        })
        .transform((w) => {
          // Drop absent coordinates rather than write `"x": undefined`.
          const out: Settings['window'] = { width: w.width, height: w.height, maximized: w.maximized }
          if (w.x !== undefined) out.x = w.x
          if (w.y !== undefined) out.y = w.y
          return out
        })
        .catch(() => ({ ...d.window })),
      allowBasicTextSecrets: z.boolean().catch(false),
      shortcutNoticeShown: z.boolean().catch(false),
      shortcut: shortcutSchema.catch(DEFAULT_SHORTCUT),
      pinned: z.boolean().catch(false),
      hideDockIcon: z.boolean().catch(true),
      checkForUpdates: z.boolean().catch(true),
      trayNoticeShown: z.boolean().catch(false),
      // Losing what was unseen only costs a missed "attention"; never the rest of the file.
      attention: lenientRecord(lenientRecord(projectAttentionSchema))
        .optional()
        .transform((a) => a ?? {}),
      connectionNotifications: lenientRecord(connectionNotificationsSchema)
        .optional()
        .transform((c) => c ?? {}),
      // Every whole budget is kept; a second one for the same scope and period, or past the bound, is not.
      budgets: lenientRecord(lenientArray(budgetSchema).transform(firstPerSlot))
        .optional()
        .transform((b) => b ?? {}),
      // A damaged target is dropped (its URL stays in the key store until removed); never the rest.
      forwarding: z
        .object({
          targets: lenientArray(forwardTargetSchema).transform((t) => t.slice(0, MAX_TARGETS)),
          awayAfterMs: awayAfterSchema.catch(DEFAULT_FORWARDING.awayAfterMs)
        })
        .catch(() => structuredClone(DEFAULT_FORWARDING))
        .optional()
        .transform((f) => f ?? structuredClone(DEFAULT_FORWARDING))
    })
    .transform((settings): Settings => {
      // An active connection that no longer exists would point the app at nothing.
      const ids = new Set(settings.connections.map((c) => c.id))
      const active =
        settings.activeConnectionId && ids.has(settings.activeConnectionId)
          ? settings.activeConnectionId
          : (settings.connections[0]?.id ?? null)
      return { ...settings, activeConnectionId: active }
    }) as unknown as z.ZodType<Settings>
}
void _parsedIsSettings
void _settingsIsParsed
