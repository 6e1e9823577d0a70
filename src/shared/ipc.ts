// The one IPC contract; `Handlers` and `Bridge` make main and the preload cover every channel at compile time. The
// API key only travels renderer -> main, inside `connection:save`.
import type { Budget, BudgetStatus } from './budgets'
import type { CostChart, CostGrouping, CostReport, CostStack } from './cost-report'
import type { AboutInfo, DesktopNote, WindowErrorReport } from './desktop'
import type {
  ForwardEventKind,
  ForwardTargetInput,
  ForwardTargetView,
  ForwardTestResult,
  ForwardWhen,
  PresenceView,
  SavedTargetView
} from './forward-target'
import type { MonitorEvent, ProjectHealth, ServiceErrorInfo } from './monitor'
import type { ProviderDescriptor, ProviderStep, ProviderTask } from './provider'
import type { Project, ProjectCreate, ProjectUpdate, PublishResult, StepsAndUsages, Task } from './service'
import type {
  Connection,
  ConnectionNotifications,
  NotificationPrefs,
  PollingPrefs,
  SecretBackend,
  Theme,
  WatchedProject
} from './settings'
import type { TaskSummary } from './task-summary'
import type { AgentCostView, UnitBudget } from './unit-costs'
import type { UpdateState } from './update'

/** What the window needs to draw the app's state; pushed on every change. */
export interface AppState {
  connections: ConnectionView[]
  /** The connection new projects are created and watched on unless another is named. */
  activeConnectionId: string | null
  /** Watched projects of every connection, in the order of the connections, with what its monitor knows of each. */
  projects: ProjectView[]
  monitor: { paused: boolean; notificationsPausedUntil: string | null }
  /** Where keys are kept now, and why, for the settings screen. */
  secrets: { backend: SecretBackend; detail: string }
  /** A one-time notice, e.g. "settings file was corrupt and was repaired". */
  notices: string[]
  demo: boolean
  /** The OS's regional format for clock times (BCP 47, its forced 12/24-hour cycle included), or null: the default. */
  clockLocale: string | null
  /** The app's own updates (core/update). */
  update: UpdateState
  /** What this desktop needs explained (Linux tray, Wayland shortcut, sound), for Settings. */
  desktopNotes: DesktopNote[]
  /** Every budget of the open connections, where it stands in its current period (core/budgets). */
  budgets: BudgetStatus[]
  /** Every service an account can be of, Workser first: names, default addresses, key pages, capabilities. */
  services: ProviderDescriptor[]
  /** Every task the open accounts of other services report (core/providers), what needs you first. */
  agentTasks: AgentTaskView[]
  /** Each open agent account's costs per unit and its per-unit budgets (shared/unit-costs.ts). */
  agentCosts: AgentCostView[]
}

/** A task of an account of another service, as the window lists it. */
export interface AgentTaskView extends ProviderTask {
  connectionId: string
  /** The account's service (a descriptor's `kind`). */
  service: string
  /** A failure the user has not opened yet (Now's second group, the badge). */
  unseenFailure: boolean
  /** Its repository or source is muted: listed, but neither told, forwarded nor counted as asking. */
  projectMuted: boolean
  /** Its steps are followed live (a stream is open); they arrive as `agent:steps` events. */
  live?: boolean
}

export interface ConnectionView extends Connection {
  /** Whether a key is stored: the key itself never reaches the window. */
  hasKey: boolean
  /** Why no key is sent to this connection until the user fixes it (a plain-http address), or null. */
  problem: string | null
  /** This account's notifications: muted, or paused until a time still to come (else null). */
  notifications: ConnectionNotifications
  /** An account of another service: how its last poll went (null for Workser's, whose health is per project). */
  agentHealth: ProjectHealth | null
}

export interface ProjectView {
  /** The connection (account) the project is watched on. */
  connectionId: string
  watched: WatchedProject
  /** null until the first successful GET /projects/{id}. */
  project: Project | null
  health: ProjectHealth
  counts: { running: number; failed: number; total: number }
  lastActivityAt: string | null
  costTodayUsd: number
  costTotalUsd: number
  /** The limit of the project's total budget; null without one (its other budgets: AppState.budgets). */
  budgetUsd: number | null
  /** What the user has not seen yet: tasks seen failing and a budget crossed since they last looked. */
  attention: { failedTaskIds: string[]; budgetCrossed: boolean }
}

export interface SettingsView {
  notifications: NotificationPrefs
  polling: PollingPrefs
  launchAtLogin: boolean
  theme: Theme
  /** Linux: keep keys under safeStorage's insecure `basic_text` backend; read at the next start. */
  allowBasicTextSecrets: boolean
  /** The show/hide shortcut (an Electron accelerator); a change the system refuses is not saved. */
  shortcut: string
  /** The window stays open and detached instead of hiding when it loses focus. */
  pinned: boolean
  /** macOS: no Dock icon while the app lives only in the tray. */
  hideDockIcon: boolean
  /** Check for updates at start and every few hours (a check the user asks for runs either way). */
  checkForUpdates: boolean
}

/** Something new the user has not seen: keyed by connection, project and task (none for a budget). */
export interface AttentionItem {
  kind: 'failed' | 'completed' | 'budget'
  connectionId: string
  projectId: string
  projectName: string
  /** Absent for a budget crossing. */
  taskId?: string
  taskName?: string
  /** When the monitor saw it (ISO). */
  at: string
  /** A failure's step where it broke (its 1-based number in start order), when the task's steps are known. */
  failedStep?: { name: string; number: number }
}

/** A task running now, with its progress. */
export interface RunningTaskView {
  connectionId: string
  projectId: string
  projectName: string
  taskId: string
  name: string
  status: TaskSummary['status']
  /** The running (or last updated) step; null before the first. Steps grow as a task runs, so there is no total. */
  currentStep: { name: string; number: number; startedAt: string } | null
  /** total_price so far (USD); null when the service sent none. */
  costUsd: number | null
  startedAt: string
  /** Set when it costs more than usual: the median cost of the project's completed tasks (USD). */
  usualCostUsd?: number
}

/** The Now screen: what needs the user across every open connection, newest first, and what runs. */
export interface NowView {
  items: AttentionItem[]
  running: RunningTaskView[]
}

/** Which unseen item the user saw: one task's (taskId), the budget crossing, a project's, or all. */
export interface AttentionAcknowledgement {
  /** Default: the active connection; with no projectId and no connectionId, every open connection. */
  connectionId?: string
  projectId?: string
  taskId?: string
  budget?: true
}

/** Which costs: days (YYYY-MM-DD, local; default the last 30), grouping, and projects (default every watched one). */
export interface CostsRequest {
  since?: string
  until?: string
  grouping: CostGrouping
  projectIds?: string[]
}

/** The Costs screen: the report, its chart over days (or months) stacked by project or model. */
export interface CostsView {
  report: CostReport
  chart: CostChart
  chartPeriod: 'day' | 'month'
  /** Tasks whose usage records are still being fetched: their cost is an estimate until then. */
  pendingTasks: number
  /** Tasks whose records could not be fetched (estimated from total_price). */
  failedTasks: number
}
/** A budget as the window sends it: without an id it is new (or replaces the one of its scope and period). */
export type BudgetInput = Omit<Budget, 'id'> & { id?: string }
/** An agent account's per-unit budget as the window sends it: without an id it is new (or replaces its unit and
 * period's). */
export type UnitBudgetInput = Omit<UnitBudget, 'id'> & { id?: string }

/** A failed call: the same shape for every channel. */
export interface IpcFailure {
  ok: false
  error: IpcError
}
/** Why a call failed: the service's error, or one the app decided (bad input, refused, a bug). */
export type IpcError = ServiceErrorInfo | { kind: 'invalid_argument' | 'forbidden' | 'internal'; message: string }
export type IpcResult<T> = { ok: true; value: T } | IpcFailure

/** Which connection a request is about; absent, the one watching the project, else the active one. */
export interface OnConnection {
  connectionId?: string
}

export interface InvokeContract {
  'app:get-state': { request: void; response: AppState }
  /** Adds or changes an account; `connection.service` names its service (absent: Workser), and with it an empty
   * `baseUrl` is the service's default address. The key is checked by the service before it is stored. */
  'connection:save': {
    request: { connection: Omit<Connection, 'id'> & { id?: string }; apiKey?: string }
    response: ConnectionView
  }
  'connection:remove': { request: { connectionId: string }; response: void }
  'connection:activate': { request: { connectionId: string }; response: void }
  /** Mutes one account's notifications, or pauses them for some minutes (null lifts a pause). */
  'connection:set-notifications': {
    request: { connectionId: string; muted?: boolean; pauseMinutes?: number | null }
    response: ConnectionView
  }
  'demo:start': { request: void; response: void }
  'project:get': { request: OnConnection & { projectId: string }; response: Project }
  /** `returnToApp`: set the new project's return_url to its agent-tray:// link (when none was given). */
  'project:create': {
    request: OnConnection & { project: ProjectCreate; watch: boolean; returnToApp?: boolean }
    response: Project
  }
  'project:update': { request: OnConnection & { projectId: string; update: ProjectUpdate }; response: Project }
  'project:watch': { request: OnConnection & { projectId: string }; response: WatchedProject }
  'project:unwatch': { request: OnConnection & { projectId: string }; response: void }
  /** `budgetUsd` sets the project's total budget (null removes it); other budgets: 'budget:save'. */
  'project:set-watch-options': {
    request: OnConnection & { projectId: string; muted?: boolean; budgetUsd?: number | null }
    response: WatchedProject
  }
  /** Adds a budget, or replaces the one with its id (or for its scope and period); on the connection named, else the active one. */
  'budget:save': { request: OnConnection & { budget: BudgetInput }; response: Budget }
  'budget:remove': { request: OnConnection & { budgetId: string }; response: void }
  /** Adds an agent account's budget in one of its units, or replaces the one with its id (or for its unit and
   * period); refused for an account that is not open or not of an agent service. */
  'unit-budget:save': { request: { connectionId: string; budget: UnitBudgetInput }; response: UnitBudget }
  'unit-budget:remove': { request: { connectionId: string; budgetId: string }; response: void }
  /** The project's tasks as the list needs them: summaries, not steps (a list may hold 10,000). */
  'project:tasks': { request: OnConnection & { projectId: string }; response: TaskSummary[] }
  /** One task in full, or null when the project has no such task. */
  'project:task': { request: OnConnection & { projectId: string; taskId: string }; response: Task | null }
  'project:publish': { request: OnConnection & { projectId: string; hostname: string }; response: PublishResult }
  /** A software product's projects, where the service offers the listing (else an `unsupported` error). */
  'product:projects': { request: OnConnection & { productId: string; order: 'asc' | 'desc' }; response: Project[] }
  /** Starts a task, where the service offers it (else an `unsupported` error); the project's monitor follows it. */
  'task:create': {
    request: OnConnection & { projectId: string; name: string; textRequirement: string }
    response: Task
  }
  /** Steps and usages of a task; also marks it as looked at, so the monitor keeps it fresh. */
  'task:details': { request: OnConnection & { taskId: string }; response: StepsAndUsages }
  'task:focus': { request: OnConnection & { taskId: string | null }; response: void }
  'settings:get': { request: void; response: SettingsView }
  'settings:update': { request: Partial<SettingsView>; response: SettingsView }
  /** Polls every watched project of every connection now. */
  'monitor:poll-now': { request: void; response: void }
  'monitor:pause-notifications': { request: { minutes: number | null }; response: void }
  /** The user saw an item (a task's, a budget crossing), a project's items, or (with nothing) all of them. */
  'attention:acknowledge': { request: AttentionAcknowledgement; response: void }
  /** The Now screen's data: unseen items newest first, and the running tasks with their progress. */
  'now:get': { request: void; response: NowView }
  /** Opens an http(s) URL in the user's browser; anything else is refused. */
  'shell:open-external': { request: { url: string }; response: void }
  /** Puts one line of text (e.g. a published site's URL) on the system clipboard. */
  'clipboard:write-text': { request: { text: string }; response: void }
  /** The clipboard's text, for a field's Paste button (an API key: the window has no clipboard permission of its own). */
  'clipboard:read-text': { request: void; response: { text: string } }
  /** Checks for an update now; the outcome arrives as AppState.update. */
  'update:check': { request: void; response: void }
  /** Quits and installs the downloaded update ('Restart to update'); refused when none is ready. */
  'update:install': { request: void; response: void }
  'app:about': { request: void; response: AboutInfo }
  /** Copies the diagnostics (About, the state, never a key) to the clipboard; returns what was copied. */
  'app:copy-diagnostics': { request: void; response: { text: string } }
  /** Shows the log file in the file manager. */
  'logs:open': { request: void; response: void }
  /** The window's own unexpected error, for the log (no generic logging channel exists). */
  'app:report-error': { request: WindowErrorReport; response: void }
  /** Over every open connection: answers at once with missing records estimated; with `complete`, once fetched. */
  'costs:report': { request: CostsRequest & { stackBy: CostStack; complete?: boolean }; response: CostsView }
  /** Saves the report as CSV where the user chooses (a save dialog); the file's path, or null when cancelled. */
  'costs:export-csv': { request: CostsRequest; response: { path: string | null } }
  /** The forwarding targets with their last delivery (never a URL or token). */
  'forward:list': { request: void; response: ForwardTargetView[] }
  /** Adds a target from its pasted URL (kept in the key store); its kind is recognised from the URL. */
  'forward:add': { request: ForwardTargetInput; response: SavedTargetView }
  /** Sends a test message to the target now; the outcome is also its last delivery or error. */
  'forward:test': { request: { targetId: string }; response: ForwardTestResult }
  /** Pauses or resumes a target, changes what it gets and when, or gives a JSON webhook a new signing secret (its history stays). */
  'forward:update': {
    request: {
      targetId: string
      paused?: boolean
      on?: ForwardEventKind[]
      when?: ForwardWhen
      quietHours?: boolean
      secret?: string
      generateSecret?: true
    }
    response: SavedTargetView
  }
  /** Removes a target: its URL from the key store, what waited for it from the outbox. */
  'forward:remove': { request: { targetId: string }; response: void }
  /** Whether the user is seen as away right now (locked, or idle longer than the set time). */
  'forward:presence': { request: void; response: PresenceView }
  /** One task of an agent account with its steps fetched; opening it marks its failure seen. */
  'agent:task': { request: AgentTaskRequest; response: AgentTaskView }
  /** Approves the task's plan where the service offers it (else refused); that account is polled right after. */
  'agent:approve': { request: AgentTaskRequest; response: void }
  /** Answers the task (1 to 10,000 characters, trimmed) where the service offers it (else refused). */
  'agent:reply': { request: AgentTaskRequest & { message: string }; response: void }
  /** Mutes a repository or source of an agent account: its tasks are neither told nor forwarded. */
  'agent:mute-project': { request: { connectionId: string; projectId: string; muted: boolean }; response: void }
}

/** A task of an agent account. */
export interface AgentTaskRequest {
  connectionId: string
  taskId: string
}

export interface EventContract {
  'app:state': AppState
  'monitor:event': MonitorEvent
  /** A notification was shown (or would be, where the OS has none): for the window and tests. */
  'notification:shown': { title: string; body: string; connectionId?: string; projectId?: string; taskId?: string }
  /** Open the window on a task, e.g. after a notification click. */
  'navigate:task': { projectId: string; taskId: string; connectionId?: string }
  /** Open the window on the settings screen (the tray's Preferences… item). */
  'navigate:settings': Record<string, never>
  /** Open the window on a project (a deep link). */
  'navigate:project': { projectId: string }
  /** A running agent task's steps so far, as its stream told them (untrusted text). */
  'agent:steps': { connectionId: string; taskId: string; steps: ProviderStep[] }
}

export type InvokeChannel = keyof InvokeContract
export type EventChannel = keyof EventContract
export type RequestOf<C extends InvokeChannel> = InvokeContract[C]['request']
export type ResponseOf<C extends InvokeChannel> = InvokeContract[C]['response']

export const INVOKE_CHANNELS = [
  'app:get-state',
  'connection:save',
  'connection:remove',
  'connection:activate',
  'connection:set-notifications',
  'demo:start',
  'project:get',
  'project:create',
  'project:update',
  'project:watch',
  'project:unwatch',
  'project:set-watch-options',
  'budget:save',
  'budget:remove',
  'unit-budget:save',
  'unit-budget:remove',
  'project:tasks',
  'project:task',
  'project:publish',
  'product:projects',
  'task:create',
  'task:details',
  'task:focus',
  'settings:get',
  'settings:update',
  'monitor:poll-now',
  'monitor:pause-notifications',
  'attention:acknowledge',
  'now:get',
  'shell:open-external',
  'clipboard:write-text',
  'clipboard:read-text',
  'update:check',
  'update:install',
  'app:about',
  'app:copy-diagnostics',
  'logs:open',
  'app:report-error',
  'costs:report',
  'costs:export-csv',
  'forward:list',
  'forward:add',
  'forward:test',
  'forward:update',
  'forward:remove',
  'forward:presence',
  'agent:task',
  'agent:approve',
  'agent:reply',
  'agent:mute-project'
] as const satisfies readonly InvokeChannel[]

export const EVENT_CHANNELS = [
  'app:state',
  'monitor:event',
  'notification:shown',
  'navigate:task',
  'navigate:settings',
  'navigate:project',
  'agent:steps'
] as const satisfies readonly EventChannel[]

// Fails the build when a channel is added to the contract but not to the list above.
type Missing<All, Listed> = Exclude<All, Listed>
// Stryker disable next-line BooleanLiteral: equivalent, the value is never read: the type is the check
const _everyInvokeListed: Missing<InvokeChannel, (typeof INVOKE_CHANNELS)[number]> extends never ? true : never = true
// Stryker disable next-line BooleanLiteral: equivalent, the value is never read: the type is the check
const _everyEventListed: Missing<EventChannel, (typeof EVENT_CHANNELS)[number]> extends never ? true : never = true
void _everyInvokeListed
void _everyEventListed

/** Main side: one handler per invoke channel; a missing one fails the build. */
export type Handlers = {
  [C in InvokeChannel]: (request: RequestOf<C>) => Promise<ResponseOf<C>>
}

/** Renderer side: what the preload exposes as `window.agentTray`. */
export type Bridge = {
  [C in InvokeChannel]: RequestOf<C> extends void
    ? () => Promise<IpcResult<ResponseOf<C>>>
    : (request: RequestOf<C>) => Promise<IpcResult<ResponseOf<C>>>
} & {
  /** Subscribes to an event channel; returns the unsubscribe function. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventContract[E]) => void): () => void
}
