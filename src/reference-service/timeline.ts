// Reads a task's plan at one simulated moment: which steps exist, their states, the usage
// records so far and the task's status and total price. Pure: (record, plan, t) → wire objects.
import type { StepStatus, TaskStatus } from '../shared/service'
import type { StepSpec, TaskPlan, UsageSpec } from './plan'
import { sumPrices } from './pricing'
import { hexFrom, streamFor } from './random'
import type { WireStep, WireTask, WireUsage } from './types'
import type { TaskRecord } from './types'

const iso = (ms: number): string => new Date(ms).toISOString()

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

/** The moment the plan is read at: a manual status freezes the plan when it was set. */
function horizon(record: TaskRecord, t: number): number {
  return record.override && record.override.at <= t ? record.override.at : t
}

function stepState(step: StepSpec, plan: TaskPlan, x: number): { status: StepStatus; at: number } {
  if (plan.end && plan.end.status === 'cancelled' && x >= plan.end.at && !(step.endAt <= plan.end.at)) {
    return { status: 'cancelled', at: plan.end.at }
  }
  if (x < step.startAt) return { status: 'pending', at: step.createdAt }
  if (x < step.endAt) return { status: 'in_progress', at: step.startAt }
  return { status: step.outcome, at: step.endAt }
}

function overridden(status: StepStatus, task: TaskStatus): StepStatus {
  if (status !== 'pending' && status !== 'in_progress') return status
  if (task === 'completed') return 'completed'
  if (task === 'cancelled') return 'cancelled'
  if (task === 'failed') return status === 'in_progress' ? 'failed' : 'cancelled'
  return status
}

function visibleSteps(plan: TaskPlan, x: number): StepSpec[] {
  const out: StepSpec[] = []
  for (const s of plan.steps) {
    if (s.createdAt > x) break
    out.push(s)
  }
  return out
}

export function stepsAt(record: TaskRecord, plan: TaskPlan, t: number): WireStep[] {
  return stepsWithTimes(record, plan, t).steps
}

/** The steps, and the latest moment any of them changed. */
function stepsWithTimes(record: TaskRecord, plan: TaskPlan, t: number): { steps: WireStep[]; latest: number } {
  const x = horizon(record, t)
  let latest = -Infinity
  const frozen = record.override && record.override.at <= t ? record.override : undefined
  const steps = visibleSteps(plan, x).map((s) => {
    let { status, at } = stepState(s, plan, x)
    if (frozen && TERMINAL.has(frozen.status)) {
      const next = overridden(status, frozen.status)
      if (next !== status) {
        status = next
        at = frozen.at
      }
    }
    if (at > latest) latest = at
    return {
      id: s.id,
      task_id: record.id,
      name: s.name,
      description: s.description,
      status,
      type: s.type,
      metadata: s.metadata,
      created_at: iso(s.createdAt),
      updated_at: iso(at)
    }
  })
  return { steps, latest }
}

function visibleUsages(plan: TaskPlan, x: number): UsageSpec[] {
  const out: UsageSpec[] = []
  for (const s of visibleSteps(plan, x)) for (const u of s.usages) if (u.at <= x) out.push(u)
  return out
}

export function totalPriceAt(record: TaskRecord, plan: TaskPlan, t: number): number {
  return sumPrices(visibleUsages(plan, horizon(record, t)).map((u) => u.final))
}

export function taskAt(record: TaskRecord, plan: TaskPlan, t: number): WireTask {
  const { steps, latest } = stepsWithTimes(record, plan, t)
  let status: TaskStatus
  let at: number
  if (record.override && record.override.at <= t) {
    status = record.override.status
    at = record.override.at
  } else if (plan.end && t >= plan.end.at) {
    status = plan.end.status
    at = plan.end.at
  } else if (t >= plan.startAt) {
    status = 'in_progress'
    at = plan.startAt
  } else {
    status = 'todo'
    at = record.createdAt
  }
  const updated = Math.max(at, latest)
  return {
    id: record.id,
    project_id: record.projectId,
    name: record.name,
    description: record.description,
    status,
    text_requirement: record.text_requirement,
    files_requirement: record.files_requirement.map((f) => ({ ...f })),
    created_at: iso(record.createdAt),
    updated_at: iso(updated),
    steps,
    branch: record.branch,
    total_price: record.totalPriceOverride ?? totalPriceAt(record, plan, t)
  }
}

/** The first moment after t at which the task can read differently; Infinity once nothing more will happen (a manual
 *  status freezes it). */
export function nextChangeAt(record: TaskRecord, plan: TaskPlan, t: number): number {
  if (record.override && record.override.at <= t) return Number.POSITIVE_INFINITY
  let next = Number.POSITIVE_INFINITY
  const consider = (at: number): void => {
    if (at > t && at < next) next = at
  }
  if (record.override) consider(record.override.at)
  consider(record.createdAt)
  consider(plan.startAt)
  if (plan.end) consider(plan.end.at)
  for (const s of plan.steps) {
    consider(s.createdAt)
    consider(s.startAt)
    consider(s.endAt)
    for (const u of s.usages) consider(u.at)
  }
  return next
}

function responseData(u: UsageSpec): Record<string, unknown> {
  const r = streamFor(u.input * 31 + u.output, u.id)
  if (u.rate.style === 'openai') {
    return {
      id: `chatcmpl-${hexFrom(r, 24)}`,
      logprobs: null,
      model_name: u.rate.modelName,
      token_usage: {
        total_tokens: u.input + u.output,
        prompt_tokens: u.input,
        completion_tokens: u.output,
        prompt_tokens_details: { audio_tokens: null, cached_tokens: u.cacheRead },
        completion_tokens_details:
          u.reasoning === null
            ? null
            : {
                audio_tokens: 0,
                reasoning_tokens: u.reasoning,
                accepted_prediction_tokens: 0,
                rejected_prediction_tokens: 0
              }
      },
      service_tier: r() < 0.5 ? 'default' : null,
      finish_reason: u.remark === 'agent_step' ? 'tool_calls' : 'stop',
      system_fingerprint: r() < 0.8 ? `fp_${hexFrom(r, 10)}` : null
    }
  }
  if (u.rate.style === 'anthropic') {
    return {
      id: `msg_${hexFrom(r, 24)}`,
      model: u.rate.modelName,
      model_name: u.rate.modelName,
      stop_reason: u.remark === 'agent_step' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: u.input - u.cacheRead,
        output_tokens: u.output,
        cache_read_input_tokens: u.cacheRead,
        cache_creation_input_tokens: 0,
        service_tier: 'standard'
      }
    }
  }
  return {
    model_name: u.rate.modelName,
    finish_reason: 'STOP',
    safety_ratings: [],
    prompt_feedback: { block_reason: 0, safety_ratings: [] }
  }
}

function wireUsage(taskId: string, u: UsageSpec, index: number): WireUsage {
  return {
    id: u.id,
    task_id: taskId,
    usage_type: 'llm_call',
    provider: u.rate.provider,
    model: u.rate.model,
    remark: u.remark,
    request_data: index % 3 === 0 ? {} : { temperature: 0, tool_choice: 'auto', messages: 4 + index * 2 },
    response_data: responseData(u),
    usage_metadata: {
      input_tokens: u.input,
      total_tokens: u.input + u.output,
      output_tokens: u.output,
      cache_read_tokens: u.cacheRead,
      input_token_details: { cache_read: u.cacheRead },
      output_token_details: u.reasoning === null ? {} : { reasoning: u.reasoning }
    },
    price: { ...u.price },
    final_price: u.final,
    created_at: iso(u.at),
    updated_at: iso(u.at)
  }
}

export function usagesAt(record: TaskRecord, plan: TaskPlan, t: number): WireUsage[] {
  return visibleUsages(plan, horizon(record, t)).map((u, i) => wireUsage(record.id, u, i))
}
