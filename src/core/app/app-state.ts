// AppState, what the window draws: the connections, every connection's watched projects with what
// its monitor knows of each, the pause, the key store and the notices.
import type { AppState, ProjectView } from '../../shared/ipc'
import { pauseShown } from '../notify/pause'
import { orderAgentTasks } from '../providers/board'
import { SERVICES } from '../providers/registry'
import type { AppContext } from './context'
import { connectionView } from './handlers/connections'
import { buildProjectView } from './project-view'

export function buildAppState(ctx: AppContext): AppState {
  const settings = ctx.settings()
  const now = ctx.clock.now()
  const projects: ProjectView[] = settings.connections.flatMap((connection) => {
    const open = ctx.session.get(connection.id)
    const monitor = open?.monitor ?? null
    const usages = monitor?.usagesByTask()
    const budgets = settings.budgets[connection.id] ?? []
    return (settings.watched[connection.id] ?? []).map((w) =>
      buildProjectView({
        budgetUsd: budgets.find((b) => b.projectId === w.projectId && b.period === 'total')?.limitUsd ?? null,
        connectionId: connection.id,
        watched: w,
        project: open?.projects.get(w.projectId) ?? null,
        summary: monitor?.getSummary(w.projectId) ?? null,
        health: monitor?.getHealth(w.projectId) ?? { state: 'unknown' },
        attention: open?.attention.view(w.projectId),
        now,
        tz: ctx.tz,
        usagesByTask: usages
      })
    )
  })
  const open = ctx.session.open()
  const agents = ctx.session.agents()
  return {
    connections: settings.connections.map((c) => connectionView(ctx, c)),
    activeConnectionId: settings.activeConnectionId,
    projects,
    monitor: {
      paused:
        open.length + agents.length === 0 ||
        (open.every((o) => o.monitor.isPaused) && agents.every((a) => a.watch.isPaused)),
      notificationsPausedUntil: pauseShown(settings.notifications.pausedUntil, now)
    },
    secrets: { backend: ctx.ports.secrets.backend, detail: ctx.ports.secrets.detail },
    notices: ctx.notices.list(),
    demo: ctx.demo.active,
    clockLocale: ctx.ports.clockLocale ?? null,
    update: ctx.updater.state,
    desktopNotes: ctx.notes(),
    budgets: ctx.budgets.statuses(),
    services: [...SERVICES],
    agentTasks: orderAgentTasks(agents.flatMap((a) => a.watch.views())),
    agentCosts: ctx.unitBudgets.views()
  }
}
