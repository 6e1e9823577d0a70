// What the controller is given by whoever runs it (the Electron main process, the e2e host,
// tests): storage, the service, time, and the few effects it cannot perform itself.
import type { TzOffset } from '../../shared/cost'
import type { Connection } from '../../shared/settings'
import type { ServiceClient } from '../client/client'
import type { InvalidRecordIssue } from '../client/parse'
import type { PresenceWatch } from '../forward/presence'
import type { Notification } from '../notify/policy'
import type { SecretStore } from '../secrets/types'
import type { SettingsStore } from '../settings/store'
import type { Clock } from '../util/clock'
import type { DesktopDeps } from './desktop'

/** Where API keys live, by connection id (core/secrets); the key never leaves it but to a client. */
export type AppSecrets = SecretStore

export interface AppClientOptions {
  onInvalidRecord?: (issue: InvalidRecordIssue) => void
}

/** A running demo service, as `startDemo` reports it. */
export interface DemoService {
  baseUrl: string
  apiKey: string
  publishingDomain: string
  projectIds: string[]
}

export interface AppControllerDeps {
  settings: SettingsStore
  secrets: AppSecrets
  /** `options` carries what the controller wants told (records the client skipped); pass it on to the client. */
  createClient(connection: Connection, apiKey: string, options?: AppClientOptions): ServiceClient
  /** Opens a URL the controller has already checked (http/https only). */
  openExternal(url: string): Promise<void>
  /** Starts a reference service for the demo; absent where there is no demo. */
  startDemo?(): Promise<DemoService>
  /** Shows a notification (a native one in main); 'notification:shown' is emitted either way. */
  notify?(notification: Notification): void
  clock?: Clock
  /** [0, 1): connection ids and the monitor's jitter. */
  random?: () => number
  /** For "today" in costs; defaults to this machine's zone. */
  tz?: TzOffset
  /** Least time between two 'app:state' pushes; default 100 ms. */
  stateIntervalMs?: number
  /** Told about the app's own failures (a write that failed, a listener that threw); never shown raw. */
  onError?(context: string, error: unknown): void
  /** Told after settings change, e.g. so main can apply launch-at-login. */
  onSettingsChanged?(): void
  /** Puts text on the system clipboard; absent where there is none. */
  /** Electron's clipboard is asynchronous (since 44): a failed write rejects. */
  writeClipboardText?(text: string): Promise<void>
  /**
   * Asks where to save a file (a save dialog, `suggestedName` offered) and writes `contents` there:
   * the path, or null when the user cancelled. Absent where files cannot be saved.
   */
  saveFile?(suggestedName: string, contents: string): Promise<string | null>
  /**
   * Makes `accelerator` the show/hide shortcut: null once it is ours, else why not (the old one is
   * kept). Absent where there is no global shortcut; the setting is then only stored.
   */
  changeShortcut?(accelerator: string): string | null
  /** Who is at this computer, for forwarding's `away` (core/forward/presence.ts); absent: the user counts as at the desk. */
  presence?: PresenceWatch
  /** The forwarding sender's fetch (tests); default the global one. */
  forwardFetch?: typeof globalThis.fetch
  /** Updates, About, the clipboard, the log (core/app/desktop.ts); absent: none of these. */
  desktop?: DesktopDeps
}
