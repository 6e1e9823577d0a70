/**
 * Workser (the first provider) onto the provider model, from the client's own types: docs/service-interface.md (a copy
 * of /work/shared/service-interface.md) is its documentation. Its client, monitor and tests stay as they are; this is
 * how the surfaces that read every service will read its tasks.
 */
import { DEFAULT_SERVICE_KEYS_URL, DEFAULT_SERVICE_NAME, DEFAULT_SERVICE_URL } from '../../../shared/base-url'
import {
  type ProviderCapabilities,
  type ProviderDescriptor,
  type ProviderStep,
  type ProviderTask,
  statusFrom,
  type StatusTable,
  USD
} from '../../../shared/provider'
import type { Project, StepStatus, Task, TaskStatus, TaskStep } from '../../../shared/service'

export const WORKSER_STATUS: StatusTable<TaskStatus> = {
  todo: 'queued',
  in_progress: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled'
}

export const WORKSER_STEP_STATUS: StatusTable<StepStatus> = {
  pending: 'queued',
  in_progress: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled'
}

export const WORKSER_CAPABILITIES: ProviderCapabilities = {
  steps: true,
  cost: true,
  publish: true,
  projects: true,
  // Nothing in the interface waits for a person.
  approve: false,
  reply: false,
  // Outside the interface document: a server may answer `unsupported` (client.ts createTask).
  startTask: true
}

export const WORKSER: ProviderDescriptor = {
  kind: 'workser',
  displayName: DEFAULT_SERVICE_NAME,
  defaultBaseUrl: DEFAULT_SERVICE_URL,
  keyPage: DEFAULT_SERVICE_KEYS_URL,
  capabilities: WORKSER_CAPABILITIES
}

export function workserStep(step: TaskStep): ProviderStep {
  const { status, serviceStatus } = statusFrom(WORKSER_STEP_STATUS, step.status_raw ?? step.status)
  return {
    id: step.id,
    kind: step.type ?? 'step',
    title: step.name,
    detail: step.description || null,
    at: step.created_at || null,
    status,
    serviceStatus
  }
}

/** A Workser task as every surface reads it; `agentPage` is the agent interface's address for it, when known. */
export function workserTask(
  task: Task,
  project: Pick<Project, 'id' | 'name'> | null,
  agentPage: string | null
): ProviderTask {
  const { status, serviceStatus } = statusFrom(WORKSER_STATUS, task.status_raw ?? task.status)
  return {
    id: task.id,
    title: task.name || task.id,
    status,
    serviceStatus,
    waiting: null,
    links: { page: agentPage, pullRequests: [], preview: null },
    project: project
      ? { id: project.id, name: project.name || project.id }
      : { id: task.project_id, name: task.project_id },
    createdAt: task.created_at || null,
    updatedAt: task.updated_at || null,
    costs: task.total_price === null ? [] : [{ amount: task.total_price, unit: USD }],
    steps: task.steps.map(workserStep)
  }
}
