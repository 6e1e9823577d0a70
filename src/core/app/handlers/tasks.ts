// Reading a task's usage also keeps it fresh while the user looks at it.
import type { Handlers } from '../../../shared/ipc'
import type { AppContext } from '../context'
import { summariesOf } from '../task-summaries'

type TaskHandlers = Pick<
  Handlers,
  'project:tasks' | 'project:task' | 'task:create' | 'task:details' | 'task:focus' | 'monitor:poll-now'
>

export function taskHandlers(ctx: AppContext): TaskHandlers {
  const { session } = ctx
  return {
    'project:tasks': async ({ connectionId, projectId }) => {
      const open = session.resolve({ connectionId, projectId })
      const summaries = summariesOf(await open.monitor.loadTasks(projectId))
      // A running task that costs more than usual carries the usual cost, for its flag.
      const unusual = ctx.budgets.unusual(open)
      if (unusual.size === 0) return summaries
      return summaries.map((t) => {
        const flag = unusual.get(t.id)
        return flag ? { ...t, usual_cost_usd: flag.usualUsd } : t
      })
    },
    'project:task': async ({ connectionId, projectId, taskId }) => {
      const tasks = await session.resolve({ connectionId, projectId }).monitor.loadTasks(projectId)
      return tasks.find((t) => t.id === taskId) ?? null
    },
    'task:create': async ({ connectionId, projectId, name, textRequirement }) => {
      const open = session.resolve({ connectionId, projectId })
      const task = await open.client.createTask({ projectId, name, textRequirement })
      // A watched project's monitor sees the new task on its next poll: make that now.
      if (
        session.get(open.connection.id) === open &&
        (ctx.settings().watched[open.connection.id] ?? []).some((w) => w.projectId === projectId)
      ) {
        void open.monitor.pollNow().catch((e: unknown) => ctx.reportError('polling after a new task', e))
      }
      return task
    },
    'task:details': async ({ connectionId, taskId }) => {
      const open = session.resolve({ connectionId, taskId })
      open.monitor.focusTask(taskId)
      const projectId = open.monitor.projectOfTask(taskId)
      if (projectId !== undefined) {
        open.monitor.focusProject(projectId)
        // Opening a task is seeing its failure.
        if (open.attention.acknowledgeTask(projectId, taskId)) ctx.changed()
      }
      return open.monitor.getTaskDetails(taskId)
    },
    'task:focus': async ({ connectionId, taskId }) => {
      if (taskId === null) for (const open of session.open()) open.monitor.focusTask(null)
      else session.resolve({ connectionId, taskId }).monitor.focusTask(taskId)
    },
    // Every account: watched projects and agent accounts alike.
    'monitor:poll-now': async () => {
      const open = session.open()
      const agents = session.agents()
      if (open.length + agents.length === 0) session.requireActive()
      await Promise.all([...open.map((o) => o.monitor.pollNow()), ...agents.map((a) => a.watch.pollNow())])
      // Refresh is done when what it found is told.
      await session.told()
    }
  }
}
