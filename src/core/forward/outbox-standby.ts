// The file is opened only once this process holds the lock; queued events wait in memory until then, and the outbox
// skips what the other process delivered meanwhile.
import type { Clock, TimerHandle } from '../util/clock'
import type { ForwardEvent } from './event'
import { MAX_PENDING_PER_TARGET, type Outbox } from './outbox'
import { FORWARDING_ELSEWHERE_APP, type OutboxLock } from './outbox-lock'

export interface StandbyDeps {
  clock: Clock
  /** Takes the lock, or null while another process holds it; absent: no other writer (tests' memory storage). */
  take?: (onLost: (error: Error) => void) => Promise<OutboxLock | null>
  /** Opens the outbox (reads its file) once the lock is held. */
  open: () => Outbox
  /** How often to try again while another process holds the lock; absent: one try (the command refuses). */
  retryMs?: number
  onError: (error: unknown) => void
  /** The lock was lost after it was held; without `retryMs` this process forwards no more (the command stops). */
  onLost?: (error: Error) => void
  onChange?: () => void
}

/** Whether this process writes the outbox; if not, why (another process does, or the lock cannot be made). */
export type Held = { held: true } | { held: false; reason: string }

export interface StandbyOutbox extends Outbox {
  /** The first try's result. */
  readonly ready: Promise<Held>
  /** Disposes and releases the lock. */
  close(): Promise<void>
}

export function createStandbyOutbox(deps: StandbyDeps): StandbyOutbox {
  let outbox: Outbox | null = null
  let lock: OutboxLock | null = null
  /** Why this process does not write the outbox now (status shows it), or null. */
  let waitingWhy: string | null = null
  let disposed = false
  let timer: TimerHandle | undefined
  let kept: readonly string[] | null = null
  // Bounded like a target's queue: a command running for weeks beside the app holds no more.
  let waiting: Array<{ event: ForwardEvent; targetIds: readonly string[] }> = []

  // A lock that cannot be made, and events dropped while waiting, are each told once until the lock is held.
  let toldCannotLock = false
  let toldDropped = false

  function opened(held: OutboxLock | null): void {
    toldCannotLock = false
    toldDropped = false
    lock = held
    waitingWhy = null
    outbox = deps.open()
    if (kept !== null) outbox.retain(kept)
    for (const { event, targetIds } of waiting.splice(0)) outbox.enqueue(event, targetIds)
    deps.onChange?.()
  }

  async function take(): Promise<Held> {
    let held: OutboxLock | null = null
    let why = FORWARDING_ELSEWHERE_APP
    try {
      held = await deps.take!(lost)
    } catch (error) {
      // The lock cannot be made (the state directory cannot be written): said as it is, tried again.
      why = `Forwarding cannot lock its outbox: ${error instanceof Error ? error.message : String(error)}`
      if (!toldCannotLock) deps.onError(error)
      toldCannotLock = true
    }
    if (disposed) {
      await held?.release()
      return { held: false, reason: 'Forwarding stopped.' }
    }
    if (held === null) {
      waitingWhy = why
      deps.onChange?.()
      retryLater()
      return { held: false, reason: why }
    }
    opened(held)
    return { held: true }
  }

  function retryLater(): void {
    if (deps.retryMs === undefined || disposed || timer !== undefined) return
    timer = deps.clock.setTimeout(() => {
      timer = undefined
      ready = take()
    }, deps.retryMs)
  }

  function lost(error: Error): void {
    // Another process may be writing it now: this one stops writing, and takes it again when it can.
    outbox?.dispose()
    outbox = null
    lock = null
    waitingWhy = FORWARDING_ELSEWHERE_APP
    deps.onError(new Error(`Forwarding stopped: the outbox's lock was lost (${error.message}).`))
    deps.onChange?.()
    deps.onLost?.(error)
    retryLater()
  }

  let released: Promise<void> | undefined
  function dispose(): void {
    disposed = true
    if (timer !== undefined) deps.clock.clearTimeout(timer)
    timer = undefined
    outbox?.dispose()
    released ??= lock?.release()
    lock = null
  }

  if (!deps.take) opened(null)
  let ready: Promise<Held> = deps.take ? take() : Promise.resolve({ held: true })
  const first = ready

  return {
    get ready() {
      return first
    },
    enqueue(event, targetIds) {
      if (outbox) return outbox.enqueue(event, targetIds)
      waiting.push({ event, targetIds })
      if (waiting.length <= MAX_PENDING_PER_TARGET) return
      waiting.shift()
      if (!toldDropped)
        deps.onError(
          new Error(
            `Forwarding waits for another Agent Tray process: past ${MAX_PENDING_PER_TARGET} waiting events, the oldest are dropped.`
          )
        )
      toldDropped = true
    },
    forget(targetId) {
      if (outbox) return outbox.forget(targetId)
      waiting = waiting.map((w) => ({ ...w, targetIds: w.targetIds.filter((id) => id !== targetId) }))
    },
    retain(targetIds) {
      kept = targetIds
      if (outbox) return outbox.retain(targetIds)
      waiting = waiting.map((w) => ({ ...w, targetIds: w.targetIds.filter((id) => targetIds.includes(id)) }))
    },
    status(targetId) {
      if (outbox) return outbox.status(targetId)
      const pending = waiting.filter((w) => w.targetIds.includes(targetId)).length
      return waitingWhy === null ? { pending } : { pending, lastError: waitingWhy }
    },
    noteTest(targetId, outcome) {
      outbox?.noteTest(targetId, outcome)
    },
    async idle() {
      await ready
      await outbox?.idle()
    },
    dispose,
    async close() {
      dispose()
      await released
    }
  }
}
