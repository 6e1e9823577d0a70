// The URL goes to the key store before the target is in config.json, so a listed target always has its URL; no answer
// carries it back, and a generated signing secret is in add's answer only, to be shown once.
import { randomUUID } from 'node:crypto'
import type { ForwardTarget, ForwardTargetView } from '../../../shared/forward-target'
import type { Handlers } from '../../../shared/ipc'
import { generateSigningSecret, planTarget } from '../../forward/add-target'
import { isAway } from '../../forward/away'
import { deleteTargetSecret, replaceSigningSecret, saveTargetSecret } from '../../forward/target-secrets'
import { invalidArgument } from '../app-error'
import type { AppContext } from '../context'

type Channels =
  'forward:list' | 'forward:add' | 'forward:test' | 'forward:update' | 'forward:remove' | 'forward:presence'

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

export function targetView(ctx: AppContext, target: ForwardTarget): ForwardTargetView {
  const s = ctx.forwarding.status(target.id)
  return {
    ...target,
    lastDeliveredAt: iso(s.lastDeliveredAt),
    lastError: s.lastError ?? null,
    lastErrorAt: iso(s.lastErrorAt),
    pending: s.pending
  }
}

function find(ctx: AppContext, targetId: string): ForwardTarget {
  const target = ctx.settings().forwarding.targets.find((t) => t.id === targetId)
  if (!target) throw invalidArgument('No such forwarding target: it was removed.')
  return target
}

export function forwardingHandlers(ctx: AppContext): Pick<Handlers, Channels> {
  return {
    'forward:list': async () => ctx.settings().forwarding.targets.map((t) => targetView(ctx, t)),
    'forward:add': async (input) => {
      const plan = planTarget(ctx.settings().forwarding.targets, input, randomUUID())
      if (!plan.ok) throw invalidArgument(plan.problem)
      await saveTargetSecret(ctx.known.store.forwarding, plan.target.id, plan.stored)
      try {
        await ctx.update((draft) => {
          draft.forwarding.targets.push(plan.target)
        })
      } catch (error) {
        await deleteTargetSecret(ctx.known.store.forwarding, plan.target.id).catch((e: unknown) =>
          ctx.reportError('forgetting a target not added', e)
        )
        throw error
      }
      ctx.changed()
      return { ...targetView(ctx, plan.target), generatedSecret: plan.generatedSecret ?? null }
    },
    'forward:test': async ({ targetId }) => {
      const target = find(ctx, targetId)
      const outcome = await ctx.forwarding.test(targetId)
      ctx.changed()
      return {
        delivered: outcome.kind === 'delivered',
        reason: outcome.kind === 'delivered' ? null : outcome.reason,
        target: targetView(ctx, target)
      }
    },
    'forward:update': async ({ targetId, secret: given, generateSecret, ...change }) => {
      find(ctx, targetId)
      // The secret goes to the key store only (never into config.json), before the rest is saved;
      // one made here is answered once, as on add.
      const secret = generateSecret ? generateSigningSecret() : given
      if (secret !== undefined) {
        const rotated = await replaceSigningSecret(ctx.known.store.forwarding, targetId, secret)
        if (!rotated.ok) throw invalidArgument(rotated.problem)
      }
      const saved = await ctx.update((draft) => {
        const t = draft.forwarding.targets.find((x) => x.id === targetId)
        if (t) Object.assign(t, change)
      })
      ctx.changed()
      return {
        ...targetView(ctx, find({ ...ctx, settings: () => saved }, targetId)),
        generatedSecret: generateSecret ? secret! : null
      }
    },
    'forward:remove': async ({ targetId }) => {
      find(ctx, targetId)
      await ctx.update((draft) => {
        draft.forwarding.targets = draft.forwarding.targets.filter((t) => t.id !== targetId)
      })
      ctx.forwarding.forget(targetId)
      await deleteTargetSecret(ctx.known.store.forwarding, targetId)
      ctx.changed()
    },
    'forward:presence': async () => {
      const now = ctx.presence.now()
      const awayAfterMs = ctx.settings().forwarding.awayAfterMs
      return {
        away: isAway(now, awayAfterMs),
        locked: now.locked,
        idleSeconds: Math.floor(now.idleMs / 1000),
        awayAfterMs
      }
    }
  }
}
