// `usage <taskId>`: tokens and cost per call, per model and in total, compared with the task's
// total_price (the authority) when the task can be found.
import { taskCost } from '../../shared/cost'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { renderUsage } from '../render'
import { skippedOf } from '../warnings'
import { findTask, searchWatched } from './find-task'

export async function usageCommand(ctx: Context, taskId: string, flags: { project?: string }): Promise<ExitCode> {
  return withClient(ctx, async (c) => {
    const { usages } = await c.client.getStepsAndUsages(taskId)
    // total_price lives on the task, which only its project's list carries.
    const task =
      flags.project !== undefined ? await findTask(ctx, c, taskId, flags.project) : await searchWatched(ctx, c, taskId)
    const cost = taskCost(usages, task?.total_price ?? null)
    if (ctx.opts.json) {
      printJson(ctx, { taskId, projectId: task?.project_id ?? null, usages, cost })
    } else {
      const note = task ? 'the service sent none' : 'task not in a watched project: give --project ID to compare'
      ctx.io.stdout.write(
        renderUsage({ taskId, usages, cost, totalNote: note, unreadable: skippedOf(ctx.skipped, 'usage') })
      )
    }
    return EXIT.ok
  })
}
