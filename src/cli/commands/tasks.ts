// `tasks <projectId>` and `steps <taskId>`: the two list endpoints (docs/service-interface.md §4.4, §4.6).
import { compareTaskStatus } from '../../shared/status'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { renderSteps, renderTasks } from '../render'
import { skippedOf } from '../warnings'

export async function tasksCommand(ctx: Context, projectId: string): Promise<ExitCode> {
  return withClient(ctx, async ({ client }) => {
    const tasks = await client.listTasks(projectId)
    if (ctx.opts.json) printJson(ctx, tasks)
    else {
      // What needs attention first, newest first within a status.
      const sorted = [...tasks].sort(
        (a, b) => compareTaskStatus(a.status, b.status) || b.updated_at.localeCompare(a.updated_at)
      )
      ctx.io.stdout.write(renderTasks(sorted, skippedOf(ctx.skipped, 'task')))
    }
    return EXIT.ok
  })
}

export async function stepsCommand(ctx: Context, taskId: string): Promise<ExitCode> {
  return withClient(ctx, async ({ client }) => {
    const steps = await client.listSteps(taskId)
    if (ctx.opts.json) printJson(ctx, steps)
    else ctx.io.stdout.write(renderSteps(steps, skippedOf(ctx.skipped, 'step')))
    return EXIT.ok
  })
}
