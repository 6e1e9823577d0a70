// /__host/... : what a test may do behind the app's back (the service's control surface, the
// network going away) and what it may read (notifications shown, links opened).
import type { AppController } from '../../src/core/app'
import type { AddTaskInput, FaultPlan, ReferenceService } from '../../src/reference-service'
import type { Notification } from '../../src/core/notify/policy'
import type { EventChannel, EventContract } from '../../src/shared/ipc'
import type { TaskStatus } from '../../src/shared/service'

export interface HostRecords {
  notifications: Notification[]
  opened: string[]
}

export type ControlReply = { status: number; body: unknown }

const ok = (body: unknown = { ok: true }): ControlReply => ({ status: 200, body })
const bad = (message: string): ControlReply => ({ status: 400, body: { error: message } })

function field<T>(body: unknown, name: string, check: (v: unknown) => boolean): T {
  const value = (body as Record<string, unknown> | null)?.[name]
  if (!check(value)) throw new Error(`"${name}" is missing or has the wrong type`)
  return value as T
}

const isString = (v: unknown) => typeof v === 'string' && v !== ''

export function handleControl(
  method: string,
  route: string,
  body: unknown,
  parts: {
    service: ReferenceService
    controller: AppController
    records: HostRecords
    /** Sends an event to the window the way main does where the controller is not involved (the tray). */
    emit: <E extends EventChannel>(channel: E, payload: EventContract[E]) => void
  }
): ControlReply {
  const { service, controller, records, emit } = parts
  try {
    switch (`${method} ${route}`) {
      case 'GET notifications':
        return ok(records.notifications)
      case 'GET opened':
        return ok(records.opened)
      case 'POST faults':
        service.control.setFaults(body as FaultPlan)
        return ok()
      case 'DELETE faults':
        service.control.clearFaults()
        return ok()
      case 'POST task-status':
        return ok(service.control.setTaskStatus(field(body, 'taskId', isString), field<TaskStatus>(body, 'status', isString)))
      case 'POST add-task': {
        const { projectId, ...input } = body as { projectId: unknown } & AddTaskInput
        if (!isString(projectId)) return bad('"projectId" is missing')
        return ok(service.control.addTask(projectId as string, input))
      }
      case 'POST create-project':
        return ok(service.control.createProject((body ?? {}) as Parameters<ReferenceService['control']['createProject']>[0]))
      case 'POST advance':
        service.control.advance(field(body, 'ms', (v) => typeof v === 'number' && v >= 0))
        return ok()
      case 'POST online':
        controller.setOnline(field(body, 'online', (v) => typeof v === 'boolean'))
        return ok()
      case 'POST navigate-settings':
        // The tray's Preferences… item.
        emit('navigate:settings', {})
        return ok()
      case 'POST poll-now':
        void controller.monitor?.pollNow()
        return ok()
      default:
        return { status: 404, body: { error: `No control route ${method} ${route}` } }
    }
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error))
  }
}
