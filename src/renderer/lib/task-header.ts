// The task screen's header: what it says once, so nothing repeats what is already shown.
import { formatDuration, formatMoney } from '../../shared/format'
import { durationMs } from './format'

/** The requirement only when it says more than the title (a task is often named by its requirement). */
export function requirementWorthShowing(title: string, requirement: string | null | undefined): boolean {
  const norm = (s: string): string =>
    s
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/[.!]+$/, '')
      .toLowerCase()
  return !!requirement && requirement.trim() !== '' && norm(requirement) !== norm(title)
}

/** One meta line: "4m 05s · feature/search · $0.30" (what is absent is left out). */
export function taskMetaLine(task: {
  created_at: string
  updated_at: string
  branch: string
  total_price: number | null
}): string {
  const parts: string[] = []
  const ms = durationMs(task.created_at, task.updated_at)
  if (ms !== null) parts.push(formatDuration(ms))
  if (task.branch) parts.push(task.branch)
  if (task.total_price !== null) parts.push(formatMoney(task.total_price))
  return parts.join(' · ')
}
