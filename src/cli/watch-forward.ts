// `watch --forward` uses the app's outbox; a headless machine has nobody at it, so it is always away.
import path from 'node:path'
import { createForwarding } from '../core/forward/forwarding'
import { OUTBOX_FILE } from '../core/forward/outbox-file'
import { FORWARDING_ELSEWHERE_APP, FORWARDING_ELSEWHERE_COMMAND } from '../core/forward/outbox-lock'
import { inQuietHours } from '../core/notify/policy'
import { settingsDir } from '../core/settings/paths'
import { systemClock } from '../core/util/clock'
import type { MonitorEvent } from '../shared/monitor'
import { projectDisplayName } from '../shared/watched-project'
import { CliError } from './cli-error'
import { type Context, openSecrets, remember } from './context'
import { EXIT } from './exit-codes'
import { oneLine } from './table'

export interface CommandForwarding {
  forward: (connectionId: string, events: readonly MonitorEvent[]) => void
  /** Aborted when the outbox's lock is lost (another process forwards now): the watch stops with exit 12. */
  lost: AbortSignal
  close: () => Promise<void>
}

export async function openForwarding(ctx: Context): Promise<CommandForwarding> {
  const lost = new AbortController()
  const store = await ctx.deps.settings()
  const secrets = await openSecrets(ctx)
  const nameOf = (targetId: string): string =>
    oneLine(store.read().forwarding.targets.find((t) => t.id === targetId)?.name ?? targetId)
  const forwarding = createForwarding({
    file: path.join(settingsDir(ctx.io.env), OUTBOX_FILE),
    clock: { ...systemClock, now: () => ctx.deps.now().getTime() },
    secrets: secrets.forwarding,
    settings: () => store.read(),
    names: {
      projectName: (c, p) => {
        const w = (store.read().watched[c] ?? []).find((x) => x.projectId === p)
        return w ? projectDisplayName(w) : p
      },
      accountName: (c) => store.read().connections.find((x) => x.id === c)?.name ?? c
    },
    moment: () => ({ away: true, quiet: inQuietHours(store.read().notifications.quietHours, ctx.deps.now()) }),
    learnSecrets: (all) => {
      for (const s of all) remember(ctx, s)
    },
    onGiveUp: (targetId, reason) =>
      ctx.io.stderr.write(`Forwarding to '${nameOf(targetId)}' gave up: ${oneLine(reason, 300)}\n`),
    onKeyStoreFailure: (targetId, reason) =>
      ctx.io.stderr.write(
        `Forwarding to '${nameOf(targetId)}' is waiting for the keychain: ${oneLine(reason, 300)} (trying again)\n`
      ),
    onError: (error) =>
      ctx.io.stderr.write(`Forwarding: ${oneLine(error instanceof Error ? error.message : String(error), 300)}\n`),
    onLockLost: () => lost.abort(new CliError(EXIT.settingsFiles, FORWARDING_ELSEWHERE_COMMAND))
  })
  // Beside the app (or another watch) the command does not forward: one writer of the outbox.
  const ready = await forwarding.ready
  if (!ready.held) {
    await forwarding.close()
    throw new CliError(
      EXIT.settingsFiles,
      ready.reason === FORWARDING_ELSEWHERE_APP ? FORWARDING_ELSEWHERE_COMMAND : ready.reason
    )
  }
  return {
    forward: forwarding.forward,
    lost: lost.signal,
    close: async () => {
      await forwarding.idle()
      await forwarding.close()
    }
  }
}
