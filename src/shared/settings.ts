// What the app and the command remember between runs (one file, shared by both).
import type { Budget } from './budgets'
import type { ForwardingPrefs } from './forward-target'
import type { UnitBudget } from './unit-costs'

export interface Connection {
  id: string
  name: string
  /** e.g. https://api.example.com; no trailing slash. */
  baseUrl: string
  /** The service's publishing domain, e.g. `apps.example.com`; empty when unknown. */
  publishingDomain: string
  /** Which service the account is of (a provider's `kind`); absent for Workser, the first. */
  service?: string
}

export interface WatchedProject {
  projectId: string
  /** Last known name, so the list reads well before the first poll. */
  name: string
  /** Its software product, once known: the window offers the products seen to list their projects. */
  softwareProductId?: string
  muted: boolean
  addedAt: string
}

/** What a notification can tell of a task: how it moved, or (an agent's task) that it waits for you. */
export type NotifiableTransition = 'started' | 'completed' | 'failed' | 'cancelled' | 'waiting'

export interface QuietHours {
  enabled: boolean
  /** Local time, "HH:MM". The range may wrap past midnight. */
  start: string
  end: string
}

export interface NotificationPrefs {
  transitions: Record<NotifiableTransition, boolean>
  quietHours: QuietHours
  sound: boolean
  /** ISO time until which notifications are paused; null when not paused. */
  pausedUntil: string | null
  /** Tell when a running task costs more than usual (core/budgets/unusual.ts); the window flags it either way. */
  unusualCost: boolean
}

export interface PollingPrefs {
  /** While a project has a task todo or in_progress. */
  activeIntervalMs: number
  /** While every task of a project has ended. */
  idleIntervalMs: number
  maxConcurrency: number
}

export interface WindowState {
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

export type Theme = 'system' | 'light' | 'dark'

export interface Settings {
  version: number
  activeConnectionId: string | null
  connections: Connection[]
  /** Watched projects per connection id. */
  watched: Record<string, WatchedProject[]>
  notifications: NotificationPrefs
  polling: PollingPrefs
  launchAtLogin: boolean
  theme: Theme
  window: WindowState
  /** Accepts the insecure `basic_text` safeStorage backend on Linux (asked once, explicitly). */
  allowBasicTextSecrets: boolean
  /** The user was told that the show/hide shortcut is taken by another app (told once, not every launch). */
  shortcutNoticeShown: boolean
  /** The show/hide shortcut, as an Electron accelerator (src/shared/accelerator.ts). */
  shortcut: string
  /** The window stays open and where the user put it, instead of a popover at the tray icon that hides on blur. */
  pinned: boolean
  /** macOS: no Dock icon while the app lives only in the tray (src/main/dock.ts). */
  hideDockIcon: boolean
  /** Check for updates at start and every few hours. */
  checkForUpdates: boolean
  /** The user was told (once) that the desktop shows no tray icon (Linux without a StatusNotifier host). */
  trayNoticeShown: boolean
  /** What the user has not seen yet, per connection id, then per watched project id. */
  attention: Record<string, Record<string, ProjectAttention>>
  /** Per connection id: its notifications muted, or paused until a time; absent is neither. */
  connectionNotifications: Record<string, ConnectionNotifications>
  /** Spending limits per connection id (shared/budgets.ts). */
  budgets: Record<string, Budget[]>
  /** Where notifications are forwarded (shared/forward-target.ts); the targets' URLs are in the key store. */
  forwarding: ForwardingPrefs
  /** Per connection id of an agent service: its spending limits in the service's own units (shared/unit-costs.ts). */
  unitBudgets: Record<string, UnitBudget[]>
  /** Per connection id of an agent service: the repositories or sources whose tasks are neither told nor forwarded. */
  mutedAgentProjects: Record<string, string[]>
}

/** One account's notifications, beside the app-wide pause and quiet hours. */
export interface ConnectionNotifications {
  muted: boolean
  /** ISO time until which this connection's notifications are held back; null when not paused. */
  pausedUntil: string | null
}

/** Failures and budget crossings not yet looked at; kept across restarts, so what was acknowledged stays so. */
export interface ProjectAttention {
  /** When the user last saw what was new of the project (ISO); null when never. */
  acknowledgedAt: string | null
  /** Tasks seen turning failed since then. */
  failedTaskIds: string[]
  /** The project's spending went over its budget since then. */
  budgetCrossed: boolean
  /** Tasks seen completing since then. */
  completedTaskIds: string[]
  /** The name and the time each listed task (failed or completed) was seen, by task id. */
  tasks: Record<string, { name: string; at: string }>
  /** When the budget was seen crossed (ISO), while budgetCrossed. */
  budgetCrossedAt: string | null
}

export const DEFAULT_NOTIFICATION_PREFS: NotificationPrefs = {
  transitions: { started: false, completed: true, failed: true, cancelled: true, waiting: true },
  quietHours: { enabled: false, start: '22:00', end: '07:00' },
  sound: true,
  pausedUntil: null,
  unusualCost: false
}

export const DEFAULT_POLLING_PREFS: PollingPrefs = {
  activeIntervalMs: 5_000,
  idleIntervalMs: 60_000,
  maxConcurrency: 4
}

/** Where the API key of a connection is kept, as the UI tells the user. */
/** Where API keys are kept; 'checking' while the app starts and the keychain has not answered yet. */
export type SecretBackend = 'keychain' | 'safe-storage' | 'session-only' | 'checking'
