// `task create --project ID --name N --text T [--watch]`: starts a task where the service offers it
// (POST /tasks, outside the interface document); --watch then follows it to its end.
import { taskNameProblem, taskRequirementProblem } from '../../shared/task-fields'
import { usageError } from '../cli-error'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { watchCommand } from './watch'

export interface TaskCreateFlags {
  project: string
  name: string
  text: string
  watch?: boolean
  exitStatus?: boolean
  intervalMs?: number
}

export async function taskCreateCommand(ctx: Context, flags: TaskCreateFlags): Promise<ExitCode> {
  // Trimmed as the window's form trims them (renderer/lib/forms.ts newTaskValue).
  const name = flags.name.trim()
  const text = flags.text.trim()
  const nameProblem = taskNameProblem(name)
  if (nameProblem !== null) throw usageError(`--name ${nameProblem}.`)
  const textProblem = taskRequirementProblem(text)
  if (textProblem !== null) throw usageError(`--text ${textProblem}: say what the agent should do.`)
  if (flags.exitStatus && !flags.watch) throw usageError('--exit-status needs --watch.')
  const task = await withClient(ctx, ({ client }) =>
    client.createTask({ projectId: flags.project, name, textRequirement: text })
  )
  if (ctx.opts.json) printJson(ctx, task)
  else ctx.io.stdout.write(`Started task ${task.id} (${task.name}) in project ${task.project_id}.\n`)
  if (!flags.watch) return EXIT.ok
  return watchCommand(ctx, [], {
    task: task.id,
    project: task.project_id,
    exitStatus: flags.exitStatus,
    intervalMs: flags.intervalMs
  })
}
