// What whoever runs the app (main process, e2e host, soak, tests) passes in: storage, the service, time, and the
// effects only the platform can perform. One type, so the composition copies nothing.
import type { TzOffset } from '../../shared/cost'
import type { AboutInfo } from '../../shared/desktop'
import type { EventChannel, EventContract } from '../../shared/ipc'
import type { Connection, Settings } from '../../shared/settings'
import type { ServiceClient } from '../client/client'
import type { InvalidRecordIssue } from '../client/parse'
import type { PresenceSource } from '../forward/presence-watch'
import type { Notification } from '../notify/policy'
import type { SecretStore } from '../secrets/types'
import type { SettingsStore } from '../settings/store'
import type { TrayView } from '../tray/model'
import type { AppUpdaterLike } from '../update/updater'
import type { Clock } from '../util/clock'
import type { FrameLike, IpcMainLike } from './ipc'
import type { PowerEvents, StartOnlineWatcher } from './lifecycle'

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
  /** An account of each agent service beside Workser's, on its own fake (keys held in memory as Workser's is). */
  agents?: DemoAgentService[]
}

export interface DemoAgentService {
  /** A descriptor's kind. */
  service: string
  name: string
  baseUrl: string
  apiKey: string
}

/** The window, as the app drives it: shown on demand, sent the contract's events. */
export interface WindowPort {
  show(): void
  send<E extends EventChannel>(channel: E, payload: EventContract[E]): void
}

export interface AppPorts {
  settings: SettingsStore
  secrets: AppSecrets
  /** Default: the real service client. `options` carries what the app wants told; pass it on to the client. */
  createClient?(connection: Connection, apiKey: string, options?: AppClientOptions): ServiceClient
  /** Opens an http(s) URL the app has already checked. */
  openExternal(url: string): Promise<void>
  /** Starts a reference service for the demo; absent where there is no demo. */
  startDemo?(): Promise<DemoService>
  /** Shows a desktop notification (the click comes back through ComposedApp.notificationClicked); 'notification:shown' is emitted either way. */
  notify?(notification: Notification): void
  /** Default: the system clock. */
  clock?: Clock
  /** [0, 1): connection ids and the monitor's jitter; default Math.random. */
  random?: () => number
  /** The OS's regional format for the window's clock times; absent: the window's default locale. */
  clockLocale?: string
  /** For "today" in costs; defaults to this machine's zone. */
  tz?: TzOffset
  /** Least time between two 'app:state' pushes; default 100 ms. */
  stateIntervalMs?: number
  /** Writes one line to the app's log (redacted before it gets here); absent: nothing is logged. */
  log?(message: string): void
  /** The app's own failures (a write that failed, a listener that threw); default: logged, never shown raw. */
  onError?(context: string, error: unknown): void
  /** After the settings changed (theme, launch at login, the pin, the Dock: what only the platform applies). */
  onSettingsChanged?(settings: Settings): void
  /** Puts text on the system clipboard; Electron's is asynchronous (since 44): a failed write rejects. */
  writeClipboardText?(text: string): Promise<void>
  /** The clipboard's text (a Paste button's); absent: there is no clipboard here. */
  readClipboardText?(): string | Promise<string>
  /** Asks where to save (a save dialog) and writes `contents` there: the path, or null when cancelled. */
  saveFile?(suggestedName: string, contents: string): Promise<string | null>
  /** Makes `accelerator` the show/hide shortcut: null once it is ours, else why not (the old one is kept). */
  changeShortcut?(accelerator: string): string | null
  /** Who is at this computer (lock events, idle time: powerMonitor); absent: the user counts as at the desk. */
  presence?: PresenceSource
  /** The forwarding sender's fetch (tests); default the global one. */
  forwardFetch?: typeof globalThis.fetch
  /** electron-updater's autoUpdater; null or absent where this build cannot update itself (`updatesUnavailable` says why). */
  updater?: AppUpdaterLike | null
  updatesUnavailable?: string
  /** Versions, platform and directories for About. */
  about?: () => Omit<AboutInfo, 'keyStore' | 'update'>
  /** Shows the log file in the file manager; absent: there is none. */
  openLogs?(): Promise<void>

  // The shell's, used by the composition only: the controller's own tests run without them.
  window: WindowPort
  /** Draws the tray (icon, tooltip, menu); absent where there is none. */
  renderTray?(view: TrayView): void
  ipc: { ipcMain: IpcMainLike; isTrusted(frame: FrameLike | null): boolean }
  power: PowerEvents
  watchOnline: StartOnlineWatcher
  /** The tray's Quit. */
  quit(): void
}

/** The ports the controller uses: all but the shell's (window, tray, IPC, power and network events, Quit). */
export type ControllerPorts = Omit<AppPorts, 'window' | 'renderTray' | 'ipc' | 'power' | 'watchOnline' | 'quit'>
