// Forward events for tests.
import type { ForwardTarget } from '../../shared/forward-target'
import type { MonitorEvent } from '../../shared/monitor'
import { type ForwardEvent, toForwardEvent } from './event'

/** A loopback webhook that forwards failures, always. */
export const WEBHOOK_TARGET: ForwardTarget = {
  id: 'f1',
  name: 'hook',
  kind: 'webhook',
  host: '127.0.0.1',
  on: ['failed'],
  when: 'always',
  paused: false,
  quietHours: false
}

export const NAMES = { projectName: () => 'Recipe Box', accountName: () => 'Work' }

export function taskEnded(
  taskId: string,
  to: 'failed' | 'completed' | 'cancelled' = 'failed',
  taskName = 'Add a contact form'
): MonitorEvent {
  return {
    kind: 'task-status',
    connectionId: 'c1',
    projectId: 'p1',
    taskId,
    taskName,
    from: 'in_progress',
    to,
    createdAt: '2026-11-27T09:00:00.000Z',
    updatedAt: '2026-11-27T09:04:00.000Z',
    totalPrice: 0.57,
    at: '2026-11-27T09:05:00.000Z'
  } as MonitorEvent
}

export function forwardEvent(
  taskId: string,
  to: 'failed' | 'completed' | 'cancelled' = 'failed',
  taskName?: string
): ForwardEvent {
  return toForwardEvent(taskEnded(taskId, to, taskName), NAMES, Date.UTC(2026, 10, 27, 9, 5))!
}

/** Another service's task starting to wait for you (a plan to approve), on account c1. */
export function agentWaits(
  text: string | null = 'Plan: add a toggle',
  url: string | null = 'https://jules.example/session/j1?a=1&b=|<'
): MonitorEvent {
  return {
    kind: 'agent-waiting',
    connectionId: 'c1',
    projectId: 'octo/shop',
    at: '2026-11-27T09:05:00.000Z',
    service: 'jules',
    serviceName: 'Jules',
    taskId: 'j1',
    taskName: 'Add dark mode',
    url,
    waiting: { kind: 'plan_approval', text, where: url }
  }
}

/** Another service's task ending (or moving) from running. */
export function agentEnded(to: 'failed' | 'completed' | 'cancelled' | 'running' = 'failed'): MonitorEvent {
  return {
    kind: 'agent-status',
    connectionId: 'c1',
    projectId: '',
    at: '2026-11-27T09:05:00.000Z',
    service: 'jules',
    serviceName: 'Jules',
    taskId: 'j2',
    taskName: 'Fix the build',
    url: 'https://jules.example/session/j2',
    from: 'running',
    to,
    serviceStatus: to.toUpperCase()
  }
}
