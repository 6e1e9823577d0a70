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
