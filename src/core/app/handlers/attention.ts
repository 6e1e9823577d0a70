// What needs the user: a project (or every watched one) seen in the window is no longer new.
import type { Handlers } from '../../../shared/ipc'
import type { AppContext } from '../context'

export function attentionHandlers(ctx: AppContext): Pick<Handlers, 'attention:acknowledge'> {
  return {
    'attention:acknowledge': async ({ projectId }) => {
      // Nothing watched yet (no connection) is nothing to acknowledge, not an error.
      const at = new Date(ctx.clock.now())
      let changed = false
      for (const open of ctx.session.open()) {
        const watched = (ctx.settings().watched[open.connection.id] ?? []).map((w) => w.projectId)
        const seen = projectId === undefined ? watched : watched.filter((id) => id === projectId)
        if (open.attention.acknowledge(seen, at)) changed = true
      }
      if (changed) ctx.changed()
    }
  }
}
