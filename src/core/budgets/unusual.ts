// "Costing more than usual": over 3 × the median of the project's completed tasks. Below 3 priced completed tasks
// there is no "usual", and nothing is flagged.
import { roundUsd } from '../../shared/cost'

export const UNUSUAL_COST_FACTOR = 3
export const MIN_COMPLETED_FOR_USUAL = 3

/** The median of the values. */
export function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  if (n === 0) return null
  const mid = Math.floor(n / 2)
  return n % 2 === 1 ? (sorted[mid] as number) : roundUsd(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2)
}

/** The median of the completed tasks' known costs, or null when too few to call usual. */
export function usualCost(completedCostsUsd: readonly number[]): number | null {
  return completedCostsUsd.length < MIN_COMPLETED_FOR_USUAL ? null : median(completedCostsUsd)
}

/** Whether a running task's cost so far is more than usual (a usual cost of 0 flags any spend). */
export function costsMoreThanUsual(taskCostUsd: number, usualUsd: number): boolean {
  return taskCostUsd > UNUSUAL_COST_FACTOR * usualUsd
}
