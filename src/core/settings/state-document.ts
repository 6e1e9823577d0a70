// state.json: the monitor's last seen state, kept apart from the settings because it is large and
// written after every poll. Damage here costs little (a project without a snapshot is simply
// re-baselined on its next poll), but it is handled the same way: never a crash, never silent.
import { z } from 'zod'
import { BUDGET_PERIODS, type BudgetPeriod } from '../../shared/budgets'
import type {
  CompactProjectSnapshot,
  FullProjectSnapshot,
  LastSeenState,
  MonitorEvent,
  ProjectSnapshot
} from '../../shared/monitor'
import { STEP_STATUSES, TASK_STATUSES } from '../../shared/service'
import type { Interpreted } from './config-document'
import { type Damage, issuePaths, readJsonObject } from './damage'
import { lenientRecord } from './schema'

/** 2: project snapshots may be compact (version 1 files, with full ones only, still read as they are). */
export const STATE_VERSION = 2

/** Budgets already notified: connection id → project id → the budget (USD) that was crossed. */
export type BudgetsNotified = Record<string, Record<string, number>>

/** What was told of one budget in its current period (core/budgets/crossing.ts). */
export interface ToldCrossing {
  periodKey: string
  level: 'near' | 'over'
  limitUsd: number
  warnRatio: number
}

export type HeldBudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>
export type HeldUnusualEvent = Extract<MonitorEvent, { kind: 'task-cost-unusual' }>
/** What the notification gate holds back until it opens (core/notify/hold.ts). */
export type HeldEvent = HeldBudgetEvent | HeldUnusualEvent

/** What the budgets remember between runs, so each crossing is told once, held ones included. */
export interface BudgetMemory {
  /** Connection id → budget id → what was told of it. */
  told: Record<string, Record<string, ToldCrossing>>
  /** Crossings and tasks costing more than usual that the notification gate holds back (quiet hours, a pause) until it opens. */
  held: HeldEvent[]
  /** Connection id → the tasks told as costing more than usual, latest last (bounded by core/budgets). */
  unusualTold: Record<string, string[]>
}

export interface StateDocument {
  version: number
  lastSeen: LastSeenState
  budgetsNotified: BudgetsNotified
  budgets: BudgetMemory
}

const taskStatus = z.enum([...TASK_STATUSES, 'unknown'])
const stepStatus = z.enum([...STEP_STATUSES, 'unknown'])

const budgetNotified = z
  .object({ budgetUsd: z.number(), level: z.enum(['near', 'over']) })
  .nullable()
  .optional()

const fullSnapshotSchema: z.ZodType<FullProjectSnapshot> = z.object({
  polledAt: z.string(),
  tasks: z.record(
    z.string(),
    z.object({
      status: taskStatus,
      name: z.string(),
      updatedAt: z.string(),
      totalPrice: z.number().nullable(),
      steps: z.record(z.string(), stepStatus)
    })
  ),
  budgetNotified
})

const compactSnapshotSchema: z.ZodType<CompactProjectSnapshot> = z
  .object({
    form: z.literal('compact'),
    polledAt: z.string(),
    taskIds: z.array(z.string()),
    statuses: z.array(taskStatus),
    prices: z.array(z.number().nullable()),
    stepCounts: z.array(z.number().int().nonnegative()),
    stepFingerprints: z.array(z.number().int()),
    steps: z.record(z.string(), z.record(z.string(), stepStatus)),
    budgetNotified
  })
  .refine(
    (s) =>
      [s.statuses, s.prices, s.stepCounts, s.stepFingerprints].every((column) => column.length === s.taskIds.length),
    'the task columns differ in length'
  )

const toldSchema = z.object({
  periodKey: z.string(),
  level: z.enum(['near', 'over']),
  limitUsd: z.number(),
  warnRatio: z.number()
})

const heldBudgetSchema: z.ZodType<HeldBudgetEvent> = z.object({
  kind: z.literal('budget'),
  connectionId: z.string(),
  projectId: z.string().nullable(),
  at: z.string(),
  budgetId: z.string(),
  period: z.enum(BUDGET_PERIODS as [BudgetPeriod, ...BudgetPeriod[]]),
  periodKey: z.string(),
  level: z.enum(['near', 'over']),
  spentUsd: z.number(),
  budgetUsd: z.number()
})

const heldUnusualSchema: z.ZodType<HeldUnusualEvent> = z.object({
  kind: z.literal('task-cost-unusual'),
  connectionId: z.string(),
  projectId: z.string(),
  at: z.string(),
  taskId: z.string(),
  taskName: z.string(),
  costUsd: z.number(),
  usualUsd: z.number()
})

const heldSchema: z.ZodType<HeldEvent> = z.union([heldBudgetSchema, heldUnusualSchema])

export function emptyBudgetMemory(): BudgetMemory {
  return { told: {}, held: [], unusualTold: {} }
}

/** Absent in files from before budgets had periods: nothing told, nothing held. */
const budgetMemorySchema = z
  .object({
    told: z.record(z.string(), z.record(z.string(), toldSchema)).default(() => ({})),
    held: z.array(heldSchema).default(() => []),
    unusualTold: z.record(z.string(), z.array(z.string())).default(() => ({}))
  })
  .default(emptyBudgetMemory)

/** A damaged part costs only itself: a crossing told again, or one held lost. */
const lenientBudgetMemory = z
  .object({
    told: lenientRecord(lenientRecord(toldSchema)),
    held: z
      .unknown()
      .optional()
      .transform((v) =>
        Array.isArray(v)
          ? v.flatMap((e) => {
              const parsed = heldSchema.safeParse(e)
              return parsed.success ? [parsed.data] : []
            })
          : []
      ),
    unusualTold: lenientRecord(z.array(z.string()))
  })
  .catch(emptyBudgetMemory)
  .optional()
  .transform((m) => m ?? emptyBudgetMemory())

/** Either form, told apart by its shape (`form: 'compact'`); the full one is what version 1 wrote. */
export const projectSnapshotSchema: z.ZodType<ProjectSnapshot> = z.union([compactSnapshotSchema, fullSnapshotSchema])

const stateSchema = z.object({
  version: z.union([z.literal(1), z.literal(STATE_VERSION)]).transform(() => STATE_VERSION),
  lastSeen: z.record(z.string(), z.record(z.string(), projectSnapshotSchema)),
  budgetsNotified: z.record(z.string(), z.record(z.string(), z.number())),
  budgets: budgetMemorySchema
})

const lenientStateSchema = z.object({
  version: z
    .unknown()
    .optional()
    .transform(() => STATE_VERSION),
  lastSeen: lenientRecord(lenientRecord(projectSnapshotSchema)),
  budgetsNotified: lenientRecord(lenientRecord(z.number())),
  budgets: lenientBudgetMemory
})

export function freshState(): StateDocument {
  return { version: STATE_VERSION, lastSeen: {}, budgetsNotified: {}, budgets: emptyBudgetMemory() }
}

/**
 * A snapshot that damage may have left incomplete is dropped: a task missing from it would be
 * announced again as new. Without a snapshot the project just sets a new baseline.
 */
function withoutPartialSnapshots(
  value: Record<string, unknown>,
  isPartial: (container: unknown) => boolean
): Record<string, unknown> {
  const lastSeen = value.lastSeen
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
  if (!isRecord(lastSeen)) return value
  const kept = Object.entries(lastSeen).map(([connectionId, projects]) => [
    connectionId,
    isRecord(projects)
      ? Object.fromEntries(Object.entries(projects).filter(([, snapshot]) => !isPartial(snapshot)))
      : projects
  ])
  return { ...value, lastSeen: Object.fromEntries(kept) }
}

export function interpretState(raw: Buffer | null): Interpreted<StateDocument> {
  if (raw === null) return { doc: freshState(), rewrite: false, damage: null }
  const json = readJsonObject(raw)
  if (!json.ok) return { doc: freshState(), rewrite: true, damage: json.damage }
  const read = { ...json, value: withoutPartialSnapshots(json.value, json.isPartial) }
  const version = read.value.version
  if (typeof version === 'number' && version > STATE_VERSION) {
    // Each snapshot that reads as one of ours is kept: without it the project's changes while the
    // app was closed would go unannounced. The rest of that file is its own business.
    return {
      doc: lenientStateSchema.parse(read.value),
      rewrite: true,
      damage: { kind: 'newer-version', reset: [], version }
    }
  }
  const strict = stateSchema.safeParse(read.value)
  if (strict.success) {
    return {
      doc: strict.data,
      rewrite: read.damage !== null,
      damage: read.damage ? { kind: read.damage, reset: [] } : null
    }
  }
  return {
    doc: lenientStateSchema.parse(read.value),
    rewrite: true,
    damage: { kind: read.damage ?? 'invalid', reset: issuePaths(strict.error.issues) }
  }
}

export function describeRecoveredState(state: StateDocument): string {
  const projects = Object.values(state.lastSeen).reduce((sum, p) => sum + Object.keys(p).length, 0)
  return `kept the last seen state of ${projects} project${projects === 1 ? '' : 's'} (the others start afresh without repeating notifications)`
}

/** The notice for a damaged state.json: it names the monitor's saved state, never "settings". */
export function describeStateDamage(damage: Damage, file: string, aside: string | null, state: StateDocument): string {
  const kept = aside ? ` The original was kept as ${aside}.` : ''
  const afresh =
    'the saved monitor state was unreadable; it starts afresh: the next poll of each project sets a new baseline'
  switch (damage.kind) {
    case 'empty':
      return `${file} was empty: ${afresh}.${kept}`
    case 'not-json':
      return `${file} was not valid JSON: ${afresh}.${kept}`
    case 'wrong-type':
      return `${file} held ${damage.reset[0] ?? 'something else'}: ${afresh}.${kept}`
    case 'newer-version':
      return `${file} was written by a newer Agent Tray (file version ${damage.version}): this version ${describeRecoveredState(state)}.${kept}`
    case 'truncated':
      return `${file} was cut short: this version ${describeRecoveredState(state)}.${kept}`
    case 'garbled':
      return `${file} was damaged and could be read only in part: this version ${describeRecoveredState(state)}.${kept}`
    case 'invalid':
      return `Some entries of ${file} were invalid (${damage.reset.join(', ')}): this version ${describeRecoveredState(state)}.${kept}`
  }
}
