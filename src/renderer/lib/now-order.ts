// The order of the Now screen's "needs you" rows: unseen failures first, then budget crossings,
// then completions, each newest first as core sends them (a stable sort keeps that order).
import type { AttentionItem } from '../../shared/ipc'

const RANK: Record<AttentionItem['kind'], number> = { failed: 0, budget: 1, completed: 2 }

export function failuresFirst(items: readonly AttentionItem[]): AttentionItem[] {
  return [...items].sort((a, b) => RANK[a.kind] - RANK[b.kind])
}

/** What was spent today across the projects shown, for the status strip. */
export function spentToday(projects: readonly { costTodayUsd: number }[]): number {
  return projects.reduce((sum, p) => sum + (Number.isFinite(p.costTodayUsd) ? p.costTodayUsd : 0), 0)
}
