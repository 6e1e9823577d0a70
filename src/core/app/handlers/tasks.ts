// Tasks of a watched project: the list as summaries, one task, its steps and usage records (which
// also keeps it fresh while looked at), and a poll on demand.
import type { Handlers } from '../../../shared/ipc'
import type { AppContext } from '../context'
import { summariesOf } from '../task-summaries'

type TaskHandlers = Pick<Handlers, 'project:tasks' | 'project:task' | 'task:details' | 'task:focus' | 'monitor:poll-now'>

export function taskHandlers(ctx: AppContext): TaskHandlers {
  const { session } = ctx
  return {
    'project:tasks': async ({ projectId }) => summariesOf(await session.requireActive().monitor.loadTasks(projectId)),
    'project:task': async ({ projectId, taskId }) => {
      const tasks = await session.requireActive().monitor.loadTasks(projectId)
      return tasks.find((t) => t.id === taskId) ?? null
    },
    'task:details': async ({ taskId }) => {
      const open = session.requireActive()
      open.monitor.focusTask(taskId)
      const projectId = open.monitor.projectOfTask(taskId)
      if (projectId !== undefined) {
        open.monitor.focusProject(projectId)
        // Opening a task is seeing its failure.
        if (open.attention.acknowledgeTask(projectId, taskId)) ctx.changed()
      }
      return open.monitor.getTaskDetails(taskId)
    },
    'task:focus': async ({ taskId }) => {
      session.active()?.monitor.focusTask(taskId)
    },
    'monitor:poll-now': async () => {
      await session.requireActive().monitor.pollNow()
    }
  }
}
