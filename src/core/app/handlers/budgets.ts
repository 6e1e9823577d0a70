// Each budget edit is checked at once, so a budget set below what was already spent is told now, not later.
import type { Handlers } from '../../../shared/ipc'
import { removeBudget, saveBudget } from '../../settings/budget-edit'
import type { AppContext } from '../context'

/** A budget's id: short, random (ctx.random, so tests decide), never a user's text. */
export function newBudgetId(random: () => number): string {
  return `b-${Math.floor(random() * 2 ** 48).toString(36)}`
}

export function budgetHandlers(ctx: AppContext): Pick<Handlers, 'budget:save' | 'budget:remove'> {
  return {
    'budget:save': async ({ connectionId, budget }) => {
      const open = ctx.session.resolve({ connectionId, projectId: budget.projectId ?? undefined })
      let saved: ReturnType<typeof saveBudget> | undefined
      await ctx.update((draft) => {
        saved = saveBudget(draft, open.connection.id, budget, () => newBudgetId(ctx.random))
      })
      ctx.checkBudgets(open)
      ctx.changed()
      return saved as NonNullable<typeof saved>
    },
    'budget:remove': async ({ connectionId, budgetId }) => {
      const open = ctx.session.resolve({ connectionId })
      await ctx.update((draft) => {
        removeBudget(draft, open.connection.id, budgetId)
      })
      ctx.checkBudgets(open)
      ctx.changed()
    }
  }
}
