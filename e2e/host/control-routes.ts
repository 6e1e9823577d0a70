// /__host/... : what a test may do behind the app's back (the service's control surface, the
// network going away) and what it may read (notifications shown, links opened).
import type { ComposedApp } from '../../src/core/app/compose'
import type { PowerEvent } from '../../src/core/app/lifecycle'
import type { Notification } from '../../src/core/notify/policy'
import type { TrayAction } from '../../src/core/tray/menu'
import type { TrayView } from '../../src/core/tray/model'
import type {
  AddTaskInput,
  AgentFake,
  AgentFakeKind,
  AgentTaskInput,
  FaultPlan,
  ReferenceService
} from '../../src/reference-service'
import type { DesktopNote } from '../../src/shared/desktop'
import type { EventChannel, EventContract } from '../../src/shared/ipc'
import type { TaskStatus } from '../../src/shared/service'
import type { ScriptedUpdater } from './updater'

export interface HostRecords {
  notifications: Notification[]
  opened: string[]
  /** What the tray shows now (icon state, tooltip, menu). */
  tray: TrayView | null
  /** How often the app asked to show its window. */
  windowShown: number
  quit: number
  /** What the app put on the clipboard: what the window copied, and 'Copy diagnostics'; a Paste reads the last. */
  clipboard: string[]
  /** The shortcut last taken from the (stand-in) platform; null until changed. */
  shortcut: string | null
  /** How often the app asked to show its log file. */
  logsOpened: number
  /** Files saved through the save dialog's stand-in (Export CSV): where, and the name offered. */
  saved: { suggestedName: string; path: string }[]
}

export interface ControlParts {
  service: ReferenceService
  agents: Record<AgentFakeKind, { fake: AgentFake }>
  app: ComposedApp
  records: HostRecords
  power: { emit(event: PowerEvent): boolean }
  setOnline(online: boolean): void
  /** How long the system says it has had no input (powerMonitor.getSystemIdleTime). */
  setIdleSeconds(seconds: number): void
  /** Sends an event to the window directly, bypassing the app. */
  emit: <E extends EventChannel>(channel: E, payload: EventContract[E]) => void
  updater: ScriptedUpdater
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

/** The agent fake a body names by `service` ('github', 'jules'). */
function agentOf(body: unknown, parts: ControlParts): AgentFake {
  const kind = field<string>(body, 'service', isString)
  if (!Object.hasOwn(parts.agents, kind))
    throw new Error(`"service" must be one of ${Object.keys(parts.agents).join(', ')}`)
  return parts.agents[kind as AgentFakeKind].fake
}

export function handleControl(method: string, route: string, body: unknown, parts: ControlParts): ControlReply {
  const { service, app, records } = parts
  try {
    switch (`${method} ${route}`) {
      case 'GET notifications':
        return ok(records.notifications)
      case 'GET opened':
        return ok(records.opened)
      case 'GET clipboard':
        return ok(records.clipboard)
      case 'GET saved':
        return ok(records.saved)
      case 'POST faults':
        service.control.setFaults(body as FaultPlan)
        return ok()
      case 'DELETE faults':
        service.control.clearFaults()
        return ok()
      case 'POST task-status':
        return ok(
          service.control.setTaskStatus(field(body, 'taskId', isString), field<TaskStatus>(body, 'status', isString))
        )
      case 'POST add-task': {
        const { projectId, ...input } = body as { projectId: unknown } & AddTaskInput
        if (!isString(projectId)) return bad('"projectId" is missing')
        return ok(service.control.addTask(projectId as string, input))
      }
      case 'POST create-project':
        return ok(
          service.control.createProject((body ?? {}) as Parameters<ReferenceService['control']['createProject']>[0])
        )
      case 'POST advance': {
        // One time for every service: the reference service and the agent fakes move together.
        const ms = field<number>(body, 'ms', (v) => typeof v === 'number' && v >= 0)
        service.control.advance(ms)
        for (const { fake } of Object.values(parts.agents)) fake.control.advance(ms)
        return ok()
      }
      case 'POST agent-task': {
        // {service, title?, repository?, script?, state?, agoMs?}: a task on that service's fake.
        const { service: _, ...input } = body as { service: unknown } & AgentTaskInput
        return ok(agentOf(body, parts).control.addTask(input))
      }
      case 'POST agent-task-state':
        return ok(
          agentOf(body, parts).control.setTaskState(field(body, 'taskId', isString), field(body, 'state', isString))
        )
      case 'GET agent-tasks/github':
      case 'GET agent-tasks/jules':
        return ok(agentOf({ service: route.split('/')[1] }, parts).control.tasks())
      case 'POST agent-seed':
        return ok(agentOf(body, parts).control.seedDemo())
      case 'POST agent-faults':
        agentOf(body, parts).control.setFaults({ rules: field(body, 'rules', Array.isArray) })
        return ok()
      case 'DELETE agent-faults':
        for (const { fake } of Object.values(parts.agents)) fake.control.clearFaults()
        return ok()
      case 'POST online':
        // As main's network watcher reports it: the lifecycle wiring pauses polling, the tray shows it.
        parts.setOnline(field(body, 'online', (v) => typeof v === 'boolean'))
        return ok()
      case 'POST power':
        parts.power.emit(
          field<PowerEvent>(
            body,
            'event',
            (v) => v === 'suspend' || v === 'resume' || v === 'lock-screen' || v === 'unlock-screen'
          )
        )
        return ok()
      case 'POST idle':
        parts.setIdleSeconds(field(body, 'seconds', (v) => typeof v === 'number' && v >= 0))
        return ok()
      case 'GET tray':
        return ok(records.tray)
      case 'POST tray-action':
        // A click on the tray's menu, through the app's own tray model.
        app.tray.perform(body as TrayAction)
        return ok()
      case 'POST navigate-settings':
        // The tray's Preferences… item.
        app.tray.perform({ type: 'preferences' })
        return ok()
      case 'POST poll-now':
        app.tray.perform({ type: 'poll-now' })
        return ok()
      case 'POST notification-click':
        app.notificationClicked(body as Parameters<ComposedApp['notificationClicked']>[0])
        return ok()
      case 'POST deep-link':
        // A link from outside, as main takes it from a launch's argv or macOS's open-url.
        app.openDeepLink(field(body, 'url', (v) => typeof v === 'string'))
        return ok()
      case 'POST update-event':
        // What electron-updater would emit: 'checking-for-update', 'update-available' {version}, 'download-progress' {percent, transferred, total}, 'update-downloaded' {version}, 'update-not-available', 'error' {message}.
        if (body === null || typeof body !== 'object') return bad('a JSON object is needed')
        {
          const { event, ...payload } = body as { event?: unknown; message?: unknown }
          if (!isString(event)) return bad('"event" is missing')
          parts.updater.emitUpdate(
            event as string,
            event === 'error' ? new Error(String(payload.message ?? 'update error')) : payload
          )
        }
        return ok()
      case 'GET update-calls':
        return ok(parts.updater.calls)
      case 'POST desktop-note':
        app.setDesktopNote(
          field<DesktopNote>(body, 'note', (v) => typeof v === 'object' && v !== null),
          field(body, 'shown', (v) => typeof v === 'boolean')
        )
        return ok()
      default:
        return { status: 404, body: { error: `No control route ${method} ${route}` } }
    }
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error))
  }
}
