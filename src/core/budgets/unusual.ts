// "Costing more than usual": a running task that has already cost more than 3 × the median of
// what the project's completed tasks cost. Below 3 completed tasks with a price there is no
// "usual" to compare with, and nothing is flagged.
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

/**
 * What a running task is compared with: the median of the completed tasks' costs, or null when too
 * few. Only tasks whose cost is known are given (spend-book.ts leaves the others out).
 */
export function usualCost(completedCostsUsd: readonly number[]): number | null {
  return completedCostsUsd.length < MIN_COMPLETED_FOR_USUAL ? null : median(completedCostsUsd)
}

/** Whether a running task's cost so far is more than usual (a usual cost of 0 flags any spend). */
export function costsMoreThanUsual(taskCostUsd: number, usualUsd: number): boolean {
  return taskCostUsd > UNUSUAL_COST_FACTOR * usualUsd
}
