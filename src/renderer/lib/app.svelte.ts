// The window's shared state: the app's pushed state, settings, the route and announcements.
// One instance for the page; screens read it and call the bridge for their own data.
import { SvelteSet } from 'svelte/reactivity'
import { setClockLocale } from '../../shared/format'
import type { AppState, SettingsView } from '../../shared/ipc'
import type { IpcError } from '../../shared/ipc'
import type { TaskSummary } from '../../shared/task-summary'
import { bridge, call } from './bridge'
import type { CostRangeChoice } from './cost-range'
import { parseRoute, type Route, routeHash } from './route'
import { taskRoute } from './services'

export class AppModel {
  state = $state.raw<AppState | null>(null)
  settings = $state.raw<SettingsView | null>(null)
  loadError = $state.raw<IpcError | null>(null)
  route = $state.raw<Route>(parseRoute(location.hash))
  /** Notices the user dismissed in this window. */
  readonly dismissed = new SvelteSet<string>()
  /** The Costs screen's range, kept while the window lives (like its other choices, not in settings). */
  costRange = $state.raw<CostRangeChoice>({ id: 'last-30' })
  /** Text for the polite live region: results and errors are read out. */
  announcement = $state('')
  /** A clock for relative times, ticking every 30 s. */
  now = $state(Date.now())

  notices = $derived((this.state?.notices ?? []).filter((n) => !this.dismissed.has(n)))
  activeConnection = $derived(this.state?.connections.find((c) => c.id === this.state?.activeConnectionId) ?? null)
  needsSetup = $derived(this.state !== null && this.state.connections.length === 0 && !this.state.demo)

  /** Tasks last fetched per project, so a task opens with its header at once; a cache read on open, never watched. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly taskCache = new Map<string, TaskSummary[]>()

  private receive(state: AppState): void {
    // Before the state is drawn, so no clock time is first drawn in Chromium's locale.
    setClockLocale(state.clockLocale)
    this.state = state
    this.loadError = null
  }

  async load(): Promise<void> {
    const [state, settings] = await Promise.all([call((b) => b['app:get-state']()), call((b) => b['settings:get']())])
    if (state.ok) {
      this.receive(state.value)
    } else if (!this.state) {
      this.loadError = state.error
    }
    if (settings.ok) this.settings = settings.value
  }

  /** Subscribes to the app's events, the hash and the clock; returns the cleanup. */
  start(): () => void {
    const cleanups: (() => void)[] = []
    try {
      const b = bridge()
      cleanups.push(
        b.on('app:state', (state) => this.receive(state)),
        b.on('navigate:task', (target) =>
          this.go(taskRoute(target, this.state?.connections ?? [], this.state?.services ?? []))
        ),
        b.on('navigate:settings', () => this.go({ name: 'settings' })),
        b.on('navigate:project', ({ projectId }) => this.go({ name: 'project', projectId })),
        b.on('notification:shown', ({ title, body }) => this.announce(`${title}: ${body}`))
      )
    } catch {
      // load() reports the missing bridge.
    }
    const onHash = (): void => {
      this.route = parseRoute(location.hash)
    }
    window.addEventListener('hashchange', onHash)
    cleanups.push(() => window.removeEventListener('hashchange', onHash))
    const tick = setInterval(() => (this.now = Date.now()), 30_000)
    cleanups.push(() => clearInterval(tick))
    void this.load()
    return () => cleanups.forEach((c) => c())
  }

  go(route: Route): void {
    const hash = routeHash(route)
    if (location.hash !== hash) location.hash = hash
    this.route = route
  }

  dismissNotice(notice: string): void {
    this.dismissed.add(notice)
  }

  private announceTimer: ReturnType<typeof setTimeout> | undefined
  announce(message: string): void {
    // Clear first so the same message twice is still read out.
    this.announcement = ''
    clearTimeout(this.announceTimer)
    this.announceTimer = setTimeout(() => (this.announcement = message), 60)
  }

  async updateSettings(patch: Partial<SettingsView>): Promise<IpcError | null> {
    const result = await call((b) => b['settings:update'](patch))
    if (!result.ok) return result.error
    this.settings = result.value
    return null
  }
}

export const app = new AppModel()
