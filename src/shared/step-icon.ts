// Which icon a step gets on the task's timeline: what the step did (its tool), else its special
// type, else a plain step. The one owner of this mapping; StepIcon.svelte only draws the name.
import type { ProviderStep } from './provider'
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

/** What a tool's name says it did, by the words tools are named with; any other tool keeps the tool icon. */
const TOOL_WORDS: readonly [RegExp, StepIconName][] = [
  [/replace/, 'replace'],
  [/terminal|command|shell|exec|run/, 'command'],
  [/list|dir|^ls$/, 'list'],
  [/search|grep|find/, 'research'],
  [/edit|write|create|apply|patch|delete/, 'write'],
  [/read|view|open/, 'read']
]

/** A step of another service's task: a tool call by its tool's name, what the agent or the user said as a message (a
 *  step named after the service itself is the agent speaking), else a plain step. */
export function providerStepIcon(step: Pick<ProviderStep, 'kind' | 'title'>, serviceKind: string | null): StepIconName {
  const kind = step.kind.toLowerCase()
  if (kind.includes('tool')) {
    const name = step.title.toLowerCase()
    return TOOL_WORDS.find(([words]) => words.test(name))?.[1] ?? 'tool'
  }
  if (/message|assistant|user|reply|result/.test(kind) || (serviceKind !== null && kind === serviceKind)) {
    return 'message'
  }
  if (/thinking|research/.test(kind)) return 'research'
  return 'step'
}
