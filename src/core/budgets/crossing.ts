// Each level is told once per period; a new period or a changed limit or warning share starts afresh (what was told was
// about another budget), and a level fallen back below may be told again when crossed again.
import { type Budget, budgetLevel } from '../../shared/budgets'
import { budgetCrossing, type BudgetLevel } from '../../shared/cost'
import type { ToldCrossing } from '../settings/state-document'

export type { ToldCrossing }

export interface CrossingCheck {
  /** The level to tell now, or null. */
  crossed: BudgetLevel | null
  /** What to remember (null: nothing told in this period). */
  told: ToldCrossing | null
}

/** Whether what was told is of this budget in this period (a changed limit or warning share is another budget). */
export function toldApplies(budget: Budget, periodKey: string, told: ToldCrossing | null): told is ToldCrossing {
  return (
    told !== null &&
    told.periodKey === periodKey &&
    told.limitUsd === budget.limitUsd &&
    told.warnRatio === budget.warnRatio
  )
}

export function checkCrossing(
  budget: Budget,
  periodKey: string,
  spentUsd: number,
  previous: ToldCrossing | null
): CrossingCheck {
  const state = budgetLevel(spentUsd, budget)
  const { crossed, notified } = budgetCrossing(toldApplies(budget, periodKey, previous) ? previous.level : null, state)
  return {
    crossed,
    told:
      notified === null ? null : { periodKey, level: notified, limitUsd: budget.limitUsd, warnRatio: budget.warnRatio }
  }
}
