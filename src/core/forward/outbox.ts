// Written before sent, so a crash or an hour offline loses nothing; one event at a time per target, so a failing one
// holds up only itself. A killed send goes again with the same Idempotency-Key; given up after 24 h, told once.
import type { Clock, TimerHandle } from '../util/clock'
import type { ForwardEvent } from './event'
import {
  DELIVERED_MEMORY,
  type OutboxDocument,
  type OutboxEntry,
  type OutboxStorage,
  type TargetStatus
} from './outbox-file'
import type { Outcome } from './response'
import type { ParsedTarget } from './target-url'

export const GIVE_UP_AFTER_MS = 24 * 3_600_000
export const BACKOFF = { firstMs: 5_000, maxMs: 15 * 60_000 }
/** A Retry-After longer than this is read as this: a target cannot park its queue for days. */
export const MAX_RETRY_AFTER_MS = 3_600_000
/** A day of failures at a busy desk, with the file kept small; beyond it the oldest are given up, told once. */
export const MAX_PENDING_PER_TARGET = 200

export interface ResolvedTarget {
  target: ParsedTarget
  secret?: string
}

export interface OutboxDeps {
  clock: Clock
  storage: OutboxStorage
  /** null when the target left the settings (its events go silently); `missing` when its entry is gone (each event is
   * given up, told once). A throw (a locked key store) is a failed try, retried with backoff. */
  resolve: (targetId: string) => Promise<ResolvedTarget | { missing: string } | null>
  send: (target: ParsedTarget, event: ForwardEvent, secret?: string) => Promise<Outcome>
  /** Once when a target starts losing events (refused, or 24 h of failures), not again until it delivers. */
  onGiveUp: (targetId: string, event: ForwardEvent, reason: string) => void
  /** Once when a target's key store entry cannot be read, not again until a read succeeds (each try is retried). */
  onKeyStoreFailure?: (targetId: string, reason: string) => void
  random?: () => number
  /** After every change of the document (the window's status). */
  onChange?: () => void
  /** What no try could settle: the outbox's file could not be written. */
  onError?: (error: unknown) => void
}

export interface Outbox {
  /** Queues the event for each target that has not had it; written before anything is sent. */
  enqueue(event: ForwardEvent, targetIds: readonly string[]): void
  /** Forgets a removed target: its queue, its memory and its status. */
  forget(targetId: string): void
  /** Forgets every target but these (the settings' targets now). */
  retain(targetIds: readonly string[]): void
  status(targetId: string): TargetStatus & { pending: number }
  /** A test message's outcome (sent outside the queue) as the target's last delivery or error. */
  noteTest(targetId: string, outcome: Outcome): void
  /** Settles once nothing is in flight (tests, the command's exit). */
  idle(): Promise<void>
  dispose(): void
}

export const KEY_STORE_UNREADABLE = 'Its URL could not be read from the key store:'

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, attempts - 1))
  // Half fixed, half jitter: never zero, never in step with other clients.
  return Math.floor(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random(), 0), 1))
}

/** Retry-After, else backoff; never under the first step (a `Retry-After: 0` must not loop hot for 24 h) nor over
 * MAX_RETRY_AFTER_MS. */
export function retryWaitMs(attempts: number, random: () => number, retryAfterMs?: number): number {
  return Math.min(Math.max(retryAfterMs ?? backoffMs(attempts, random), BACKOFF.firstMs), MAX_RETRY_AFTER_MS)
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const doc: OutboxDocument = deps.storage.read()
  const random = deps.random ?? Math.random
  const inFlight = new Map<string, Promise<void>>()
  const timers = new Map<string, TimerHandle>()
  /** Targets whose key store entry could not be read at their last try (told once). */
  const unreadable = new Set<string>()
  let disposed = false

  const save = (): void => {
    deps.storage.write(doc)
    deps.onChange?.()
  }
  const queueOf = (targetId: string): OutboxEntry[] => doc.pending.filter((e) => e.targetId === targetId)
  const delivered = (targetId: string): string[] => (doc.delivered[targetId] ??= [])
  const status = (targetId: string): TargetStatus => (doc.status[targetId] ??= {})

  function drop(targetId: string): void {
    doc.pending = doc.pending.filter((e) => e.targetId !== targetId)
    delete doc.delivered[targetId]
    delete doc.status[targetId]
    unreadable.delete(targetId)
    const t = timers.get(targetId)
    if (t !== undefined) deps.clock.clearTimeout(t)
    timers.delete(targetId)
  }

  function remove(entry: OutboxEntry): void {
    doc.pending = doc.pending.filter((e) => e !== entry)
  }

  /** Gives up the oldest events beyond MAX_PENDING_PER_TARGET (never the one being sent); told once. */
  function trim(targetId: string): void {
    const queue = queueOf(targetId)
    const over = queue
      .slice(inFlight.has(targetId) ? 1 : 0)
      .slice(0, Math.max(0, queue.length - MAX_PENDING_PER_TARGET))
    if (over.length === 0) return
    doc.pending = doc.pending.filter((e) => !over.includes(e))
    const s = status(targetId)
    const first = (s.givenUp ?? 0) === 0
    s.givenUp = (s.givenUp ?? 0) + over.length
    if (first)
      deps.onGiveUp(
        targetId,
        over[0]!.event,
        `more than ${MAX_PENDING_PER_TARGET} notifications were waiting: the oldest were given up.`
      )
  }

  function schedule(targetId: string): void {
    if (disposed || inFlight.has(targetId)) return
    const head = queueOf(targetId)[0]
    const old = timers.get(targetId)
    if (old !== undefined) deps.clock.clearTimeout(old)
    timers.delete(targetId)
    if (!head) return
    const wait = head.nextAt - deps.clock.now()
    if (wait <= 0) {
      pump(targetId)
      return
    }
    timers.set(
      targetId,
      deps.clock.setTimeout(() => {
        timers.delete(targetId)
        pump(targetId)
      }, wait)
    )
  }

  function pump(targetId: string): void {
    if (disposed || inFlight.has(targetId)) return
    const head = queueOf(targetId)[0]
    if (!head || head.nextAt > deps.clock.now()) return schedule(targetId)
    // attempt() settles every send and key store failure itself; what is left (the file cannot be
    // written) already moved the entry on, so the next try waits.
    const run = attempt(head)
      .catch((error: unknown) => deps.onError?.(error))
      .finally(() => {
        inFlight.delete(targetId)
        schedule(targetId)
      })
    inFlight.set(targetId, run)
  }

  /** One try: the target's outcome, or null when the target left the settings (its queue is dropped). */
  async function tryOnce(entry: OutboxEntry): Promise<Outcome | null> {
    let resolved: Awaited<ReturnType<OutboxDeps['resolve']>>
    try {
      resolved = await deps.resolve(entry.targetId)
      unreadable.delete(entry.targetId)
    } catch (error) {
      const reason = `${KEY_STORE_UNREADABLE} ${messageOf(error)}`
      if (!unreadable.has(entry.targetId)) {
        unreadable.add(entry.targetId)
        deps.onKeyStoreFailure?.(entry.targetId, reason)
      }
      return { kind: 'retry', reason }
    }
    if (disposed) return null
    if (resolved === null) {
      doc.pending = doc.pending.filter((e) => e.targetId !== entry.targetId)
      save()
      return null
    }
    if ('missing' in resolved) return { kind: 'refused', reason: resolved.missing }
    return deps
      .send(resolved.target, entry.event, resolved.secret)
      .catch((error: unknown): Outcome => ({ kind: 'retry', reason: messageOf(error) }))
  }

  async function attempt(entry: OutboxEntry): Promise<void> {
    const outcome = await tryOnce(entry)
    // Forgotten while it was sent (its target removed): nothing of it is kept.
    if (disposed || outcome === null || !doc.pending.includes(entry)) return
    const now = deps.clock.now()
    const s = status(entry.targetId)
    if (outcome.kind === 'delivered') {
      remove(entry)
      const seen = delivered(entry.targetId)
      seen.push(entry.event.id)
      if (seen.length > DELIVERED_MEMORY) seen.splice(0, seen.length - DELIVERED_MEMORY)
      s.lastDeliveredAt = now
      delete s.lastError
      delete s.lastErrorAt
      delete s.givenUp
      save()
      return
    }
    s.lastError = outcome.reason
    s.lastErrorAt = now
    entry.attempts += 1
    entry.lastError = outcome.reason
    const waitMs = outcome.kind === 'retry' ? retryWaitMs(entry.attempts, random, outcome.retryAfterMs) : 0
    if (outcome.kind === 'refused' || now + waitMs - entry.enqueuedAt > GIVE_UP_AFTER_MS) {
      remove(entry)
      const first = (s.givenUp ?? 0) === 0
      s.givenUp = (s.givenUp ?? 0) + 1
      save()
      if (first)
        deps.onGiveUp(
          entry.targetId,
          entry.event,
          outcome.kind === 'refused' ? outcome.reason : `not delivered in 24 h: ${outcome.reason}`
        )
      return
    }
    entry.nextAt = now + waitMs
    save()
  }

  // What a former run left: each target's queue resumes in order, at once for what was due.
  // A file from before the bound may hold more than it allows.
  const resumed = new Set(doc.pending.map((e) => e.targetId))
  const before = doc.pending.length
  for (const targetId of resumed) trim(targetId)
  if (doc.pending.length < before) save()
  for (const targetId of resumed) schedule(targetId)

  return {
    enqueue(event, targetIds) {
      const now = deps.clock.now()
      const added: string[] = []
      for (const targetId of targetIds) {
        if (delivered(targetId).includes(event.id)) continue
        if (doc.pending.some((e) => e.targetId === targetId && e.event.id === event.id)) continue
        doc.pending.push({ targetId, event, enqueuedAt: now, attempts: 0, nextAt: now })
        added.push(targetId)
      }
      if (added.length === 0) return
      for (const targetId of added) trim(targetId)
      save()
      for (const targetId of added) schedule(targetId)
    },
    forget(targetId) {
      drop(targetId)
      save()
    },
    retain(targetIds) {
      const known = new Set([
        ...doc.pending.map((e) => e.targetId),
        ...Object.keys(doc.delivered),
        ...Object.keys(doc.status)
      ])
      const gone = [...known].filter((id) => !targetIds.includes(id))
      for (const targetId of gone) drop(targetId)
      if (gone.length > 0) save()
    },
    status: (targetId) => ({ ...(doc.status[targetId] ?? {}), pending: queueOf(targetId).length }),
    noteTest(targetId, outcome) {
      const s = status(targetId)
      const now = deps.clock.now()
      if (outcome.kind === 'delivered') {
        s.lastDeliveredAt = now
        delete s.lastError
        delete s.lastErrorAt
      } else {
        s.lastError = outcome.reason
        s.lastErrorAt = now
      }
      save()
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()])
    },
    dispose() {
      disposed = true
      for (const t of timers.values()) deps.clock.clearTimeout(t)
      timers.clear()
    }
  }
}
