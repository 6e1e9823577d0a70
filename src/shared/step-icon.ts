// Which icon a step gets on the task's timeline: what the step did (its tool), else its special
// type, else a plain step. The one owner of this mapping; StepIcon.svelte only draws the name.
import type { TaskStep } from './service'
import { describeStepMetadata } from './step-metadata'

export type StepIconName =
  'read' | 'write' | 'list' | 'command' | 'replace' | 'message' | 'look' | 'research' | 'draw' | 'tool' | 'step'

export function stepIcon(step: Pick<TaskStep, 'type' | 'metadata'>): StepIconName {
  const view = describeStepMetadata(step.metadata)
  switch (view.kind) {
    case 'file':
      return view.tool === 'read_file_from_sandbox' ? 'read' : 'write'
    case 'directory':
      return 'list'
    case 'command':
      return 'command'
    case 'replace':
      return 'replace'
    default:
      break
  }
  switch (step.type) {
    case 'ai_agent_message':
      return 'message'
    case 'image_understanding':
      return 'look'
    case 'research':
      return 'research'
    case 'image_generation':
      return 'draw'
    default:
      // A tool we do not know still did something: a tool icon, not a plain step.
      return view.kind === 'generic' && view.tool !== null ? 'tool' : 'step'
  }
}
