// Each budget edit is checked at once, so a budget set below what was already spent is told now, not later.
import type { Handlers } from '../../../shared/ipc'
import type { AgentCostView } from '../../../shared/unit-costs'
import { isAgentService } from '../../providers/registry'
import { removeBudget, saveBudget } from '../../settings/budget-edit'
import { removeUnitBudget, saveUnitBudget } from '../../settings/unit-budget-edit'
import { invalidArgument } from '../app-error'
import type { AppContext } from '../context'

/** A budget's id: short, random (ctx.random, so tests decide), never a user's text. */
export function newBudgetId(random: () => number, prefix = 'b'): string {
  return `${prefix}-${Math.floor(random() * 2 ** 48).toString(36)}`
}

export function budgetHandlers(
  ctx: AppContext
): Pick<Handlers, 'budget:save' | 'budget:remove' | 'unit-budget:save' | 'unit-budget:remove'> {
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
    },
    // An agent account's budget is in a unit it reports: the form offers those, and the same rule refuses any other.
    'unit-budget:save': async ({ connectionId, budget }) => {
      const view = openAgentCosts(ctx, connectionId)
      let saved: ReturnType<typeof saveUnitBudget> | undefined
      await ctx.update((draft) => {
        saved = saveUnitBudget(draft, connectionId, budget, view.budgetUnits, () => newBudgetId(ctx.random, 'u'))
      })
      ctx.checkUnitBudgets(connectionId)
      ctx.changed()
      return saved as NonNullable<typeof saved>
    },
    'unit-budget:remove': async ({ connectionId, budgetId }) => {
      openAgentCosts(ctx, connectionId)
      await ctx.update((draft) => {
        removeUnitBudget(draft, connectionId, budgetId)
      })
      ctx.checkUnitBudgets(connectionId)
      ctx.changed()
    }
  }
}

/** The open agent account's costs; refused for any other connection. */
function openAgentCosts(ctx: AppContext, connectionId: string): AgentCostView {
  const view = ctx.unitBudgets.view(connectionId)
  if (view !== null) return view
  const connection = ctx.settings().connections.find((c) => c.id === connectionId)
  if (!connection) throw invalidArgument(`There is no connection with id "${connectionId}".`)
  throw invalidArgument(
    isAgentService(connection.service)
      ? `The account ${connection.name} is not open: a budget in its units waits until it is.`
      : `The account ${connection.name} has budgets in USD only.`
  )
}
