// state.json: the monitor's last seen state, kept apart from the settings because it is large and
// written after every poll. It is handled as config.json is: never a crash, never silent.
import { z } from 'zod'
import { BUDGET_PERIODS, type BudgetPeriod } from '../../shared/budgets'
import type { CompactProjectSnapshot, FullProjectSnapshot, MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import { PROVIDER_STATUSES, WAITING_KINDS } from '../../shared/provider'
import { STEP_STATUSES, TASK_STATUSES } from '../../shared/service'
import type { AgentMemory } from '../providers/board'
import type { Finding, Interpreted } from './document-file'
import type { JsonObject } from './migrate'
import { forgiving, issuePaths, type Kit, strict } from './schema'

/** 2: project snapshots may be compact (version 1 files, with full ones only, still read as they are). */
export const STATE_VERSION = 2

export type HeldBudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>
export type HeldUnitBudgetEvent = Extract<MonitorEvent, { kind: 'unit-budget' }>
export type HeldUnusualEvent = Extract<MonitorEvent, { kind: 'task-cost-unusual' }>
export type HeldWaitingEvent = Extract<MonitorEvent, { kind: 'agent-waiting' }>
/** What the notification gate holds back until it opens (core/notify/hold.ts). */
export type HeldEvent = HeldBudgetEvent | HeldUnitBudgetEvent | HeldUnusualEvent | HeldWaitingEvent

const level = z.enum(['near', 'over'])
const taskStatus = z.enum([...TASK_STATUSES, 'unknown'])
const stepStatus = z.enum([...STEP_STATUSES, 'unknown'])

const budgetNotified = z.object({ budgetUsd: z.number(), level }).nullable().optional()

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

/** What was told of one budget in its current period (core/budgets/crossing.ts). */
const toldSchema = z.object({ periodKey: z.string(), level, limitUsd: z.number(), warnRatio: z.number() })

/** What was told of one per-unit budget in its current period (core/budgets/unit-tracker.ts). */
const unitToldSchema = z.object({ periodKey: z.string(), level, limit: z.number(), warnRatio: z.number() })

const heldUnitBudgetSchema: z.ZodType<HeldUnitBudgetEvent> = z.object({
  kind: z.literal('unit-budget'),
  connectionId: z.string(),
  projectId: z.null(),
  at: z.string(),
  budgetId: z.string(),
  unit: z.string(),
  period: z.enum(BUDGET_PERIODS as [BudgetPeriod, ...BudgetPeriod[]]),
  periodKey: z.string(),
  level,
  spent: z.number(),
  limit: z.number()
})

const heldBudgetSchema: z.ZodType<HeldBudgetEvent> = z.object({
  kind: z.literal('budget'),
  connectionId: z.string(),
  projectId: z.string().nullable(),
  at: z.string(),
  budgetId: z.string(),
  period: z.enum(BUDGET_PERIODS as [BudgetPeriod, ...BudgetPeriod[]]),
  periodKey: z.string(),
  level,
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

const heldWaitingSchema: z.ZodType<HeldWaitingEvent> = z.object({
  kind: z.literal('agent-waiting'),
  connectionId: z.string(),
  projectId: z.string(),
  at: z.string(),
  service: z.string(),
  serviceName: z.string(),
  taskId: z.string(),
  taskName: z.string(),
  url: z.string().nullable(),
  waiting: z.object({ kind: z.enum(WAITING_KINDS), text: z.string().nullable(), where: z.string().nullable() })
})

const heldSchema: z.ZodType<HeldEvent> = z.union([
  heldBudgetSchema,
  heldUnitBudgetSchema,
  heldUnusualSchema,
  heldWaitingSchema
])

/** What an agent account's tasks were last seen as, and its failures not opened yet (core/providers/board.ts). */
const agentMemorySchema: z.ZodType<AgentMemory> = z.object({
  seen: z.record(z.string(), z.object({ status: z.enum(PROVIDER_STATUSES), waiting: z.string().nullable() })),
  unseenFailures: z.array(z.string())
})

/** Either form, told apart by its shape (`form: 'compact'`); the full one is what version 1 wrote. */
export const projectSnapshotSchema: z.ZodType<ProjectSnapshot> = z.union([compactSnapshotSchema, fullSnapshotSchema])

/** Strict or forgiving (schema.ts): forgiving, a damaged entry costs only itself (a crossing told again, a project re-baselined). */
const stateSchemaOf = ({ or, list, map }: Kit) =>
  z.object({
    version: or(z.union([z.literal(1), z.literal(STATE_VERSION)]), STATE_VERSION).transform(() => STATE_VERSION),
    lastSeen: map(map(projectSnapshotSchema)),
    // Connection id → project id → the budget (USD) that was crossed.
    budgetsNotified: map(map(z.number())),
    // What the budgets remember between runs, so each crossing is told once, held ones included;
    // absent in files from before budgets had periods: nothing told, nothing held.
    budgets: or(
      z.object({
        told: map(map(toldSchema)), // connection id → budget id → what was told of it
        held: list(heldSchema), // held back by the notification gate (quiet hours, a pause) until it opens
        unusualTold: map(z.array(z.string())), // connection id → tasks told as costing more than usual, latest last
        unitTold: map(map(unitToldSchema)) // agent account id → per-unit budget id → what was told of it
      }),
      { told: {}, held: [], unusualTold: {}, unitTold: {} }
    ),
    // Connection id → what its agent tasks were last seen as; absent in files from before agent services.
    agents: map(agentMemorySchema)
  })
const stateSchema = stateSchemaOf(strict)
const forgivingStateSchema = stateSchemaOf(forgiving)

export type StateDocument = z.infer<typeof stateSchema>
export type BudgetsNotified = StateDocument['budgetsNotified']
export type BudgetMemory = StateDocument['budgets']
export type ToldCrossing = z.infer<typeof toldSchema>
export type UnitToldCrossing = z.infer<typeof unitToldSchema>

export const emptyBudgetMemory = (): BudgetMemory => stateSchema.shape.budgets.parse(undefined)

export function interpretState(value: JsonObject): Interpreted<StateDocument> {
  const { version } = value
  // A newer file: each snapshot that reads as one of ours is kept, or the project's changes while
  // the app was closed would go unannounced. The rest of that file is its own business.
  if (typeof version === 'number' && version > STATE_VERSION)
    return { doc: forgivingStateSchema.parse(value), rewrite: true, finding: { kind: 'newer-version', version } }
  const strictly = stateSchema.safeParse(value)
  if (strictly.success) return { doc: strictly.data, rewrite: false }
  return {
    doc: forgivingStateSchema.parse(value),
    rewrite: true,
    finding: { kind: 'invalid', wrong: issuePaths(strictly.error.issues) }
  }
}

/** The notice for a state.json kept aside: it names the monitor's saved state, never "settings". */
export function describeStateFinding(finding: Finding, file: string, aside: string, state: StateDocument): string {
  const kept = ` The original was kept as ${aside}.`
  const projects = Object.values(state.lastSeen).reduce((sum, p) => sum + Object.keys(p).length, 0)
  const recovered = `kept the last seen state of ${projects} project${projects === 1 ? '' : 's'} (the others start afresh without repeating notifications)`
  switch (finding.kind) {
    case 'not-json':
      return finding.lastGood
        ? `${file} ${finding.why}: the saved monitor state from ${finding.lastGood} is in use.${kept}`
        : `${file} ${finding.why}: the saved monitor state was unreadable; it starts afresh: the next poll of each project sets a new baseline.${kept}`
    case 'newer-version':
      return `${file} was written by a newer Agent Tray (file version ${finding.version}): this version ${recovered}.${kept}`
    case 'invalid':
      return `Some entries of ${file} were invalid (${finding.wrong.join(', ')}): this version ${recovered}.${kept}`
  }
}
