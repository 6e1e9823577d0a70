// `watch --forward`: what the watch tells also goes to the forwarding targets, through the same
// outbox as the app (forward-outbox.json beside state.json). A headless machine has nobody at it,
// so it is always away; quiet hours apply only to targets that ask for them.
import path from 'node:path'
import { createForwarder } from '../core/forward/forwarder'
import { createOutbox } from '../core/forward/outbox'
import { fileOutboxStorage, OUTBOX_FILE } from '../core/forward/outbox-file'
import { createSender } from '../core/forward/send'
import { loadTargetSecret } from '../core/forward/targets'
import { inQuietHours } from '../core/notify/policy'
import { settingsDir } from '../core/settings/paths'
import { systemClock } from '../core/util/clock'
import type { MonitorEvent } from '../shared/monitor'
import { projectDisplayName } from '../shared/watched-project'
import { openSecrets, remember, type Context } from './context'
import { oneLine } from './table'

export async function openForwarding(ctx: Context): Promise<{ forward: (connectionId: string, events: readonly MonitorEvent[]) => void; close: () => Promise<void> }> {
  const store = await ctx.deps.settings()
  const secrets = await openSecrets(ctx)
  const outbox = createOutbox({
    clock: systemClock,
    storage: fileOutboxStorage(path.join(settingsDir(ctx.io.env), OUTBOX_FILE)),
    resolve: async (targetId) => {
      const loaded = await loadTargetSecret(secrets, targetId)
      if (loaded === null) return null
      for (const s of loaded.secrets) remember(ctx, s)
      return loaded.secret === undefined ? { target: loaded.target } : { target: loaded.target, secret: loaded.secret }
    },
    send: createSender({ now: () => ctx.deps.now().getTime() }),
    onGiveUp: (targetId, _event, reason) => {
      const name = store.read().forwarding.targets.find((t) => t.id === targetId)?.name ?? targetId
      ctx.io.stderr.write(`Forwarding to '${oneLine(name)}' gave up: ${oneLine(reason, 300)}\n`)
    }
  })
  const forward = createForwarder({
    outbox,
    settings: () => store.read(),
    names: {
      projectName: (c, p) => {
        const w = (store.read().watched[c] ?? []).find((x) => x.projectId === p)
        return w ? projectDisplayName(w) : p
      },
      accountName: (c) => store.read().connections.find((x) => x.id === c)?.name ?? c
    },
    moment: () => ({ away: true, quiet: inQuietHours(store.read().notifications.quietHours, ctx.deps.now()) }),
    now: () => ctx.deps.now().getTime()
  })
  return {
    forward,
    close: async () => {
      await outbox.idle()
      outbox.dispose()
    }
  }
}
