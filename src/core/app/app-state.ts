// AppState, what the window draws: the connections, the active connection's watched projects with
// what its monitor knows of each, the pause, the key store and the notices.
import type { AppState, ProjectView } from '../../shared/ipc'
import type { AppContext } from './context'
import { connectionView } from './handlers/connections'
import { buildProjectView } from './project-view'

export function buildAppState(ctx: AppContext): AppState {
  const settings = ctx.settings()
  const open = ctx.session.active()
  const monitor = open?.monitor ?? null
  const usages = monitor?.usagesByTask()
  const now = ctx.clock.now()
  const watched = settings.activeConnectionId === null ? [] : (settings.watched[settings.activeConnectionId] ?? [])
  const projects: ProjectView[] = watched.map((w) =>
    buildProjectView({
      watched: w,
      project: open?.projects.get(w.projectId) ?? null,
      summary: monitor?.getSummary(w.projectId) ?? null,
      health: monitor?.getHealth(w.projectId) ?? { state: 'unknown' },
      ...(open ? { attention: open.attention.view(w.projectId) } : {}),
      now,
      tz: ctx.tz,
      ...(usages ? { usagesByTask: usages } : {})
    })
  )
  const pausedUntil = settings.notifications.pausedUntil
  return {
    connections: settings.connections.map((c) => connectionView(ctx, c)),
    activeConnectionId: settings.activeConnectionId,
    projects,
    monitor: {
      paused: monitor === null || monitor.isPaused,
      notificationsPausedUntil: pausedUntil !== null && Date.parse(pausedUntil) > now ? pausedUntil : null
    },
    secrets: { backend: ctx.deps.secrets.backend, detail: ctx.deps.secrets.detail },
    notices: ctx.notices.list(),
    demo: ctx.demo.active
  }
}
