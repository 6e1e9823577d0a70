// Another service's steps on the task's timeline: each row's second line, one row per step id, and what is said aloud
// when steps arrive live (a few words at most every ANNOUNCE_MS, never every step).
import type { ProviderStep } from '../../shared/provider'
import { describeStepMetadata } from '../../shared/step-metadata'
import { metadataSummary, oneLine } from './steps'

/** The least time between two announcements of live steps. */
export const ANNOUNCE_MS = 2_000

/** A tool's arguments, when the step's detail is a JSON object (as a tool call's is); else null. */
export function stepArguments(step: Pick<ProviderStep, 'detail'>): Record<string, unknown> | null {
  if (step.detail === null) return null
  try {
    const parsed: unknown = JSON.parse(step.detail)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** A step's detail in one line: a tool's arguments as key=value, any other text as it is. */
export function providerStepLine(step: Pick<ProviderStep, 'detail'>): string {
  const args = stepArguments(step)
  return args === null ? oneLine(step.detail ?? '') : metadataSummary(describeStepMetadata(args))
}

/** The longest heading a step's detail gets; a longer title (a message) is shown whole below it. */
const HEADING_MAX = 80

/** A step's detail heading: its title when short and on one line, else the title's start with the whole text apart. */
export function stepHeading(step: Pick<ProviderStep, 'title' | 'kind'>): { title: string; full: string | null } {
  const title = step.title.trim()
  if (title === '') return { title: step.kind, full: null }
  if (title.length <= HEADING_MAX && !title.includes('\n')) return { title, full: null }
  const first = oneLine(title.split('\n')[0] ?? '')
  return { title: first.length > HEADING_MAX ? `${first.slice(0, HEADING_MAX - 1)}…` : first, full: title }
}

/** One row per id, in first-seen order with the latest copy: a step the service sent again replaces the earlier. */
export function uniqueSteps(steps: readonly ProviderStep[]): ProviderStep[] {
  const byId = new Map<string, ProviderStep>()
  for (const step of steps) byId.set(step.id, step)
  return [...byId.values()]
}

/** What is said of the steps not yet told (null when none): how many, and the latest one's name. */
export function newStepsWords(told: ReadonlySet<string>, steps: readonly ProviderStep[]): string | null {
  const fresh = steps.filter((s) => !told.has(s.id))
  const latest = fresh.at(-1)
  if (latest === undefined) return null
  const name = oneLine(latest.title || latest.kind)
  return fresh.length === 1 ? `New step: ${name}` : `${fresh.length} new steps, the latest: ${name}`
}
