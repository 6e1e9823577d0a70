// What the app puts right at start, before anything is opened: the pauses an earlier run stored, a
// demo it left behind, connections config.json lost, and the log's knowledge of the targets' tokens.
import type { AppContext } from './context'
import { DEMO_CONNECTION_ID, forgetLeftoverDemo } from './demo-connection'
import { restoreLostConnections } from './restore-connections'

export async function beforeOpening(ctx: AppContext): Promise<void> {
  const { ports, notices, keys, update, reportError } = ctx
  notices.add(ports.settings.takeNotices())
  // A pause stored by an earlier run still ends on time: the window is told then.
  const stored = ctx.settings()
  ctx.pauses.paused({ all: true }, stored.notifications.pausedUntil)
  for (const [connectionId, prefs] of Object.entries(stored.connectionNotifications))
    ctx.pauses.paused({ connectionId }, prefs.pausedUntil)
  // A demo an earlier run left is not polled, a connection config.json lost is back.
  await forgetLeftoverDemo(keys, ctx.settings, update, (id) => ports.settings.writeLastSeen(id, {})).catch(
    (e: unknown) => reportError('forgetting the last demo', e)
  )
  const restored = await restoreLostConnections(keys, ctx.settings, update, new Set([DEMO_CONNECTION_ID])).catch(
    (e: unknown) => (reportError('restoring connections from the keychain', e), [])
  )
  notices.add(restored)
  // The log learns the targets' tokens before a line can quote one. Not without targets: forwarding's
  // first use of the key store moves the entries an earlier version kept among the keys.
  if (ctx.settings().forwarding.targets.length > 0) {
    await ctx.known.store.forwarding
      .list?.()
      .catch((e: unknown) => reportError('reading the forwarding targets from the key store', e))
  }
}
