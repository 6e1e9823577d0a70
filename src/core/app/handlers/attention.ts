// What needs the user: the Now screen's data, and acknowledging what was seen (one item, a
// project's, or every open connection's).
import type { Handlers } from '../../../shared/ipc'
import type { AttentionTarget } from '../attention'
import type { AppContext } from '../context'
import { buildNowView } from '../now'
import type { OpenConnection } from '../session'

export function attentionHandlers(ctx: AppContext): Pick<Handlers, 'attention:acknowledge' | 'now:get'> {
  const watchedOf = (connectionId: string) => ctx.settings().watched[connectionId] ?? []
  return {
    'attention:acknowledge': async ({ connectionId, projectId, taskId, budget }) => {
      const at = new Date(ctx.clock.now())
      // Nothing watched yet (no connection) is nothing to acknowledge, not an error.
      // The connection named, else every open one (a project id names one project whichever holds it).
      const scope: OpenConnection[] =
        connectionId !== undefined
          ? [ctx.session.get(connectionId)].filter((o): o is OpenConnection => o !== undefined)
          : ctx.session.open()
      const target: AttentionTarget = taskId !== undefined ? { taskId } : budget ? { budget: true } : 'all'
      let changed = false
      for (const open of scope) {
        const watched = watchedOf(open.connection.id).map((w) => w.projectId)
        for (const id of projectId === undefined ? watched : watched.filter((w) => w === projectId)) {
          if (open.attention.acknowledgeItem(id, target, at)) changed = true
        }
      }
      if (changed) ctx.changed()
    },
    'now:get': async () => {
      const view = await buildNowView(ctx.session.open(), watchedOf)
      // A running task that costs more than usual carries the usual cost, for its flag.
      const unusual = new Map(ctx.session.open().flatMap((open) => [...ctx.budgets.unusual(open)]))
      return {
        ...view,
        running: view.running.map((t) =>
          unusual.has(t.taskId) ? { ...t, usualCostUsd: unusual.get(t.taskId)!.usualUsd } : t
        )
      }
    }
  }
}
