// A new task's fields (POST /tasks, outside the interface document): the one rule, checked by the
// window's form, the app's request schema and the command, so none accepts what another refuses.

import { LINE_CONTROL, TEXT_CONTROL } from './controls'

export const MAX_TASK_NAME_LENGTH = 200
export const MAX_TASK_REQUIREMENT_LENGTH = 100_000

/** Why `name` cannot name a new task, in words that fit after "The name ", or null when it can. */
export function taskNameProblem(name: string): string | null {
  if (name.trim() === '') return 'must not be empty'
  if (name.length > MAX_TASK_NAME_LENGTH) return `must be at most ${MAX_TASK_NAME_LENGTH} characters`
  if (LINE_CONTROL.test(name)) return 'must be a single line without control characters'
  return null
}

/** Why `text` cannot be a new task's requirement (what the agent should do), or null when it can. */
export function taskRequirementProblem(text: string): string | null {
  if (text.trim() === '') return 'must not be empty'
  if (text.length > MAX_TASK_REQUIREMENT_LENGTH) return `must be at most ${MAX_TASK_REQUIREMENT_LENGTH} characters`
  if (TEXT_CONTROL.test(text)) return 'must not contain control characters'
  return null
}
