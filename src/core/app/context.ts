// What the controller's parts share: the deps it was given, the open connections (session), the
// notification gate, the notices, the window's events, and safe settings writes. Built once by
// createAppController; each handler group (handlers/*.ts) receives it.
import type { TzOffset } from '../../shared/cost'
import type { EventContract } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'
import type { Forwarding } from '../forward/forwarding'
import type { PresenceWatch } from '../forward/presence'
import type { NotificationGate } from '../notify/gate'
import type { PauseTimers } from '../notify/pause'
import type { KeyCustody } from '../secrets/custody'
import type { Clock } from '../util/clock'
import type { Emitter } from '../util/emitter'
import type { AppBudgets } from './budgets'
import type { AppControllerDeps } from './deps'
import type { DesktopDeps } from './desktop'
import type { Notices } from './notices'
import type { OpenConnection as OpenSession, Session } from './session'

export interface AppContext {
  readonly deps: AppControllerDeps
  readonly clock: Clock
  readonly random: () => number
  readonly tz: TzOffset
  readonly session: Session
  /** The keys, each sent only to the origin it was given for. */
  readonly keys: KeyCustody
  readonly gate: NotificationGate
  /** Tell the window when a pause of notifications ends (one timer per pause). */
  readonly pauses: PauseTimers
  readonly budgets: AppBudgets
  /** Checks a connection's budgets now (after an edit): news is told as after a round. */
  checkBudgets(open: OpenSession): void
  /** Forwarding to the user's targets (core/forward): the outbox, its sends and each target's status. */
  readonly forwarding: Forwarding
  readonly presence: PresenceWatch
  readonly notices: Notices
  readonly events: Emitter<EventContract>
  readonly desktop: DesktopDeps
  /** The app runs its demo (the 'demo' connection was set up in this run). */
  readonly demo: { active: boolean }
  settings(): Settings
  /** A locked settings write; a change the rules refuse becomes the app's invalid_argument. */
  update(mutate: (draft: Settings) => void): Promise<Settings>
  /** Something the window shows changed: an 'app:state' push follows (coalesced). */
  changed(): void
  reportError(context: string, error: unknown): void
  readonly stopped: boolean
}
