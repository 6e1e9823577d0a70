// How much asks for the user's attention: counted once, for the tray icon (core/tray/state.ts) and
// the window's badge on Now, so the two never disagree.
import type { AppState } from './ipc'

export interface AttentionCount {
  /** Tasks seen failing since the user last looked, muted projects left out. */
  newFailed: number
  /** Projects whose budget was crossed since the user last looked, muted projects left out. */
  budgetsCrossed: number
  /** Account-wide budgets at or past their limit: they ask while their period lasts (no one project's item to mark seen). */
  accountsOver: number
}

export function countAttention(app: Pick<AppState, 'projects' | 'budgets'>): AttentionCount {
  let newFailed = 0
  let budgetsCrossed = 0
  for (const p of app.projects) {
    if (p.watched.muted) continue
    newFailed += p.attention.failedTaskIds.length
    if (p.attention.budgetCrossed) budgetsCrossed += 1
  }
  const accountsOver = app.budgets.filter((b) => b.state === 'over' && b.budget.projectId === null).length
  return { newFailed, budgetsCrossed, accountsOver }
}

/** Everything that asks, as one number (the badge); 0 means nothing does. */
export function attentionTotal(count: AttentionCount): number {
  return count.newFailed + count.budgetsCrossed + count.accountsOver
}
