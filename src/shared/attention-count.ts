// How much asks for the user's attention: counted once, for the tray icon (core/tray/state.ts) and
// the window's badge on Now, so the two never disagree. Another service's task asks while it waits for you, and once
// failed until opened.
import type { AgentTaskView, AppState } from './ipc'

export interface AttentionCount {
  /** Tasks seen failing since the user last looked, muted projects left out. */
  newFailed: number
  /** Projects whose budget was crossed since the user last looked, muted projects left out. */
  budgetsCrossed: number
  /** Account-wide budgets at or past their limit, an agent account's per-unit ones too: they ask while their period
   * lasts (no one project's item to mark seen). */
  accountsOver: number
  /** Tasks of other services waiting for you, muted accounts left out: they ask until answered. */
  agentsWaiting: number
  /** Tasks of other services failed and not opened yet, muted accounts left out. */
  agentFailures: number
}

/** Another service's tasks that ask: of accounts whose notifications are not muted. */
export function askingAgentTasks(app: Partial<Pick<AppState, 'agentTasks' | 'connections'>>): AgentTaskView[] {
  const muted = new Set((app.connections ?? []).filter((c) => c.notifications.muted).map((c) => c.id))
  return (app.agentTasks ?? []).filter((t) => !muted.has(t.connectionId) && !t.projectMuted)
}

export function countAttention(
  app: Pick<AppState, 'projects' | 'budgets'> & Partial<Pick<AppState, 'agentTasks' | 'connections' | 'agentCosts'>>
): AttentionCount {
  let newFailed = 0
  let budgetsCrossed = 0
  for (const p of app.projects) {
    if (p.watched.muted) continue
    newFailed += p.attention.failedTaskIds.length
    if (p.attention.budgetCrossed) budgetsCrossed += 1
  }
  const accountsOver =
    app.budgets.filter((b) => b.state === 'over' && b.budget.projectId === null).length +
    (app.agentCosts ?? []).reduce((n, a) => n + a.budgets.filter((b) => b.state === 'over').length, 0)
  const agents = askingAgentTasks(app)
  const agentsWaiting = agents.filter((t) => t.status === 'waiting').length
  const agentFailures = agents.filter((t) => t.status === 'failed' && t.unseenFailure).length
  return { newFailed, budgetsCrossed, accountsOver, agentsWaiting, agentFailures }
}

/** Everything that asks, as one number (the badge); 0 means nothing does. */
export function attentionTotal(count: AttentionCount): number {
  return count.newFailed + count.budgetsCrossed + count.accountsOver + count.agentsWaiting + count.agentFailures
}
