// What the controller's handler groups share, built once by createAppController so each group reads one object.
import type { TzOffset } from '../../shared/cost'
import type { DesktopNote } from '../../shared/desktop'
import type { Settings } from '../../shared/settings'
import type { Forwarding } from '../forward/forwarding'
import type { PresenceWatch } from '../forward/presence-watch'
import type { KnownKeys } from '../log/known-keys'
import type { NotificationGate } from '../notify/gate'
import type { PauseTimers } from '../notify/pause'
import type { Updater } from '../update/updater'
import type { AppBudgets } from './budgets'
import type { Notices } from './notices'
import type { SessionContext } from './open-connection'
import type { OpenConnection as OpenSession, Session } from './session'
import type { AppUnitBudgets } from './unit-budgets'

export interface AppContext extends SessionContext {
  /** Every key this run has held, for the log's redaction; `known.store` is the key store that learns them. */
  readonly known: KnownKeys
  readonly tz: TzOffset
  readonly session: Session
  readonly gate: NotificationGate
  /** Tell the window when a pause of notifications ends (one timer per pause). */
  readonly pauses: PauseTimers
  readonly budgets: AppBudgets
  /** Agent accounts' costs per unit and their per-unit budgets. */
  readonly unitBudgets: AppUnitBudgets
  /** Checks an agent account's per-unit budgets now (after an edit): news is told as after a poll. */
  checkUnitBudgets(connectionId: string): void
  /** Checks a connection's budgets now (after an edit): news is told as after a round. */
  checkBudgets(open: OpenSession): void
  /** Forwarding to the user's targets (core/forward): the outbox, its sends and each target's status. */
  readonly forwarding: Forwarding
  readonly presence: PresenceWatch
  readonly notices: Notices
  readonly updater: Updater
  /** What this desktop needs explained, for Settings. */
  notes(): DesktopNote[]
  /** Writes one line to the app's log, every known key taken out. */
  log(message: string): void
  /** Takes every known key out of a text (the log's redaction). */
  redact(text: string): string
  /** The app runs its demo (the 'demo' connection was set up in this run). */
  readonly demo: { active: boolean }
  settings(): Settings
  readonly stopped: boolean
}
