// Forwarding as the app and `watch --forward` both run it. URLs are read from the key store only when a send needs
// them; the runner says what `away` and quiet hours are (the command: always away).
import { randomUUID } from 'node:crypto'
import type { MonitorEvent } from '../../shared/monitor'
import type { Clock } from '../util/clock'
import { type EventNames, testEvent } from './event'
import { createOutbox, type Outbox } from './outbox'
import { fileOutboxStorage, type OutboxStorage } from './outbox-file'
import { lockOutbox } from './outbox-lock'
import { createStandbyOutbox, type Held } from './outbox-standby'
import { createForwarder, type ForwarderDeps } from './queue-events'
import type { Outcome } from './response'
import type { Moment } from './select'
import { createSender } from './send'
import { loadTargetSecret, type TargetSecretStore } from './target-secrets'

export interface ForwardingDeps {
  /** The outbox's file (OUTBOX_FILE in the state directory); `storage` instead, in tests. */
  file?: string
  storage?: OutboxStorage
  clock: Clock
  secrets: Pick<TargetSecretStore, 'get'>
  settings: ForwarderDeps['settings']
  names: EventNames
  moment: () => Moment
  /** Told every secret a target's entry holds as it is read, before any send: redaction learns them. */
  learnSecrets?: (secrets: readonly string[]) => void
  /** Once when a target starts losing events (refused, or 24 h of failures). */
  onGiveUp: (targetId: string, reason: string) => void
  /** Once when a target's URL cannot be read from the key store (locked, denied); its events are retried. */
  onKeyStoreFailure?: (targetId: string, reason: string) => void
  /** What the outbox could not settle (its file cannot be written). */
  onError?: (error: unknown) => void
  /** After every change of the outbox (a target's last delivery or error). */
  onChange?: () => void
  fetch?: typeof globalThis.fetch
  random?: () => number
  /** How often to try taking over the file from another process (the app); absent, one try (the command refuses). */
  lockRetryMs?: number
  /** The outbox's lock was lost while held (another process took it): the command stops on it. */
  onLockLost?: (error: Error) => void
}

export interface Forwarding {
  /** Whether this process forwards: not while another (the app or the command) holds the outbox. */
  readonly ready: Promise<Held>
  /** A told round of a connection's events: queued for the targets that want each now. */
  forward(connectionId: string, events: readonly MonitorEvent[]): void
  /** Sends a test message to one target now, outside its queue; the outcome becomes its last delivery or error. */
  test(targetId: string): Promise<Outcome>
  status: Outbox['status']
  /** A removed target: its queue, memory and status go. */
  forget(targetId: string): void
  /** Settles once nothing is in flight. */
  idle(): Promise<void>
  /** Gives a send under way `graceMs` to be answered and recorded, so a quit does not send it twice; a slower one is
   * sent again at the next start with the same Idempotency-Key. */
  close(graceMs?: number): Promise<void>
  dispose(): void
}

export const CLOSE_GRACE_MS = 3_000

export const NOT_IN_KEY_STORE = 'Its URL is not in the key store: remove the target and add it again.'

export function createForwarding(deps: ForwardingDeps): Forwarding {
  const now = (): number => deps.clock.now()
  const send = createSender({ now, fetch: deps.fetch })
  const load = async (targetId: string) => {
    const loaded = await loadTargetSecret(deps.secrets as TargetSecretStore, targetId)
    if (loaded !== null) deps.learnSecrets?.(loaded.secrets)
    return loaded
  }
  const storage = deps.storage ?? (deps.file !== undefined ? fileOutboxStorage(deps.file, now) : undefined)
  if (storage === undefined) throw new Error('forwarding needs an outbox file or storage')
  const file = deps.storage ? undefined : deps.file
  const openOutbox = (): Outbox =>
    createOutbox({
      clock: deps.clock,
      storage,
      resolve: async (targetId) => {
        // A target removed from the settings meanwhile (before or during the read) gets nothing more.
        const listed = (): boolean => deps.settings().forwarding.targets.some((t) => t.id === targetId)
        if (!listed()) return null
        // A throw (the key store locked or denied) is retried; an entry gone or unreadable is said.
        const loaded = await load(targetId)
        if (!listed()) return null
        if (loaded === null) return { missing: NOT_IN_KEY_STORE }
        return loaded.secret === undefined
          ? { target: loaded.target }
          : { target: loaded.target, secret: loaded.secret }
      },
      send,
      onGiveUp: (targetId, _event, reason) => deps.onGiveUp(targetId, reason),
      onKeyStoreFailure: deps.onKeyStoreFailure,
      onError: deps.onError,
      random: deps.random,
      onChange: deps.onChange
    })
  const outbox = createStandbyOutbox({
    clock: deps.clock,
    take: file === undefined ? undefined : (onLost) => lockOutbox(file, onLost),
    retryMs: deps.lockRetryMs,
    onError: (error) => deps.onError?.(error),
    onChange: deps.onChange,
    onLost: deps.onLockLost,
    open: openOutbox
  })
  const forwardEvents = createForwarder({
    outbox,
    settings: deps.settings,
    names: deps.names,
    moment: deps.moment,
    now
  })
  // What belongs to targets no longer in the settings goes: at start, and when the targets change.
  let kept: string | null = null
  const prune = (): void => {
    const ids = deps.settings().forwarding.targets.map((t) => t.id)
    if (ids.join('\n') === kept) return
    kept = ids.join('\n')
    outbox.retain(ids)
  }
  prune()
  return {
    ready: outbox.ready,
    forward(connectionId, events) {
      prune()
      forwardEvents(connectionId, events)
    },
    async test(targetId) {
      const loaded = await load(targetId)
      const outcome: Outcome =
        loaded === null
          ? { kind: 'refused', reason: NOT_IN_KEY_STORE }
          : await send(loaded.target, testEvent(now(), randomUUID()), loaded.secret)
      outbox.noteTest(targetId, outcome)
      return outcome
    },
    status: (targetId) => {
      prune()
      return outbox.status(targetId)
    },
    forget: (targetId) => outbox.forget(targetId),
    idle: () => outbox.idle(),
    async close(graceMs = CLOSE_GRACE_MS) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs)
        timer.unref?.()
      })
      await Promise.race([outbox.idle(), grace])
      clearTimeout(timer)
      await outbox.close()
    },
    dispose: () => outbox.dispose()
  }
}
