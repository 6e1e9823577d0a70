// The tray as a model, so the Electron adapter (src/main/tray.ts) only renders a TrayView and forwards clicks.
import type { AppState } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import { firstLine } from '../secrets/types'
import { buildTrayMenu, type TrayAction, type TrayMenuItem } from './menu'
import { summariseTray, type TrayState, trayTooltip } from './state'
import { applyMonitorEvent, keepWatched, tasksOf, type TrayTasks } from './tasks'

export interface TrayView {
  state: TrayState
  tooltip: string
  menu: TrayMenuItem[]
}

export const STARTING_TOOLTIP = 'Agent Tray — starting…'

/** A locked keychain may take 30 s, so the icon is there at once and says so; the window and Quit already work. */
export function startingTrayView(): TrayView {
  return {
    state: 'idle',
    tooltip: STARTING_TOOLTIP,
    menu: [
      { kind: 'label', label: 'Starting…' },
      { kind: 'separator' },
      { kind: 'action', label: 'Open Window', action: { type: 'open-window' }, enabled: true },
      { kind: 'action', label: 'Quit Agent Tray', action: { type: 'quit' }, enabled: true }
    ]
  }
}

/** What the tray's actions act on. */
export interface TrayActions {
  showWindow(): void
  openTask(projectId: string, taskId: string, connectionId?: string): void
  openSettings(): void
  pollNow(): Promise<void>
  pauseNotifications(minutes: number | null): Promise<void>
  /** 'Restart to update': quits and installs the downloaded version. */
  installUpdate(): void
  openLogs(): Promise<void>
  quit(): void
  log(message: string): void
}

export interface TrayModel {
  /** The app's state changed. */
  setState(state: AppState): void
  /** A monitor event: the tray keeps the names and statuses of tasks it lists. */
  takeEvent(event: MonitorEvent): void
  setOnline(online: boolean): void
  readonly view: TrayView
  /** Runs a menu action (a click on the tray's menu, or the icon). */
  perform(action: TrayAction): void
}

export function createTrayModel(options: {
  initial: AppState
  actions: TrayActions
  /** Told each time the view changes. */
  render: (view: TrayView) => void
}): TrayModel {
  const { actions } = options
  let state = options.initial
  let online = true
  let tasks: TrayTasks = {}
  let view = build()

  function build(): TrayView {
    const summary = summariseTray(state, online)
    return {
      state: summary.state,
      tooltip: trayTooltip(summary),
      menu: buildTrayMenu({
        app: state,
        summary,
        online,
        tasksOf: (connectionId, projectId) => tasksOf(tasks, connectionId, projectId)
      })
    }
  }

  function refresh(): void {
    view = build()
    options.render(view)
  }

  const failed = (what: string) => (e: unknown) => actions.log(`tray ${what}: ${firstLine(e)}`)

  options.render(view)
  return {
    setState(next) {
      state = next
      tasks = keepWatched(
        tasks,
        next.projects.map((p) => ({ connectionId: p.connectionId, projectId: p.watched.projectId }))
      )
      refresh()
    },
    takeEvent(event) {
      const next = applyMonitorEvent(tasks, event)
      if (next === tasks) return
      tasks = next
      refresh()
    },
    setOnline(value) {
      if (value === online) return
      online = value
      refresh()
    },
    get view() {
      return view
    },
    perform(action) {
      switch (action.type) {
        case 'open-window':
          return actions.showWindow()
        case 'open-task':
          return actions.openTask(action.projectId, action.taskId, action.connectionId)
        case 'poll-now':
          return void actions.pollNow().catch(failed('poll'))
        case 'pause-notifications':
          return void actions.pauseNotifications(action.minutes).catch(failed('pause'))
        case 'resume-notifications':
          return void actions.pauseNotifications(null).catch(failed('resume'))
        case 'preferences':
          return actions.openSettings()
        case 'install-update':
          return actions.installUpdate()
        case 'open-logs':
          return void actions.openLogs().catch(failed('logs'))
        case 'quit':
          return actions.quit()
      }
    }
  }
}
