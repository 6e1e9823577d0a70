// Forwarding targets as the settings keep them: never the URL, which holds the token and so lives in the key store.
export const TARGET_KINDS = ['ntfy', 'slack', 'discord', 'telegram', 'webhook'] as const
export type TargetKind = (typeof TARGET_KINDS)[number]

/** Each kind as the window and the command name it. */
export const KIND_TITLES: Record<TargetKind, string> = {
  ntfy: 'ntfy',
  slack: 'Slack',
  discord: 'Discord',
  telegram: 'Telegram',
  webhook: 'JSON webhook'
}

/** Slack's and Discord's webhook hosts: a URL on one of them is that kind, not a JSON webhook. */
const KIND_HOSTS: Record<string, TargetKind> = {
  'hooks.slack.com': 'slack',
  'discord.com': 'discord',
  'discordapp.com': 'discord'
}

/** The kind a pasted target URL is, from its scheme and host alone, so the window can name it while it is typed. */
export function targetKindOf(text: string): TargetKind | null {
  const t = text.trim()
  if (/^tgram:/i.test(t)) return 'telegram'
  const url = URL.parse(t)
  if (!url) return null
  if (url.protocol === 'ntfy:' || url.protocol === 'ntfys:') return 'ntfy'
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  return KIND_HOSTS[url.hostname.toLowerCase()] ?? 'webhook'
}

export const FORWARD_EVENTS = ['waiting', 'failed', 'completed', 'cancelled', 'budget', 'unusual'] as const
export type ForwardEventKind = (typeof FORWARD_EVENTS)[number]

/** Each event a target may get, in the words of Settings → Forwarding. */
export const FORWARD_EVENT_TITLES: Record<ForwardEventKind, string> = {
  waiting: 'Tasks waiting for you',
  failed: 'Failed tasks',
  completed: 'Completed tasks',
  cancelled: 'Cancelled tasks',
  budget: 'Budget warnings and limits',
  unusual: 'Tasks costing more than usual'
}

export type ForwardWhen = 'always' | 'away'

export interface ForwardTarget {
  id: string
  name: string
  kind: TargetKind
  host: string
  on: ForwardEventKind[]
  when: ForwardWhen
  paused: boolean
  /** Nothing is forwarded to it during quiet hours (they are the desktop's otherwise). */
  quietHours: boolean
}

export interface ForwardingPrefs {
  targets: ForwardTarget[]
  /** Idle this long (or the screen locked) is away. */
  awayAfterMs: number
  /** The events the targets' choices were made among; absent in files from before `waiting` (see withEventsOffered). */
  eventsOffered?: ForwardEventKind[]
}

export const DEFAULT_AWAY_AFTER_MS = 5 * 60_000
export const AWAY_AFTER_BOUNDS = { min: 60_000, max: 24 * 3_600_000 }
export const MAX_TARGET_NAME = 80
export const MAX_TARGETS = 20
export const DEFAULT_FORWARD_EVENTS: ForwardEventKind[] = ['waiting', 'failed', 'budget']

/** What targets saved before `eventsOffered` was kept could choose among. */
const FIRST_OFFERED: readonly ForwardEventKind[] = ['failed', 'completed', 'cancelled', 'budget', 'unusual']

/** Saved targets as this version reads them: an event on by default that they were never offered is switched on (a
 * target saved before tasks could wait for you gets `waiting`); what they were offered stays as the user chose. */
export function withEventsOffered<T extends Pick<ForwardingPrefs, 'targets' | 'eventsOffered'>>(prefs: T): T {
  const offered = prefs.eventsOffered ?? FIRST_OFFERED
  const news = DEFAULT_FORWARD_EVENTS.filter((k) => !offered.includes(k))
  const targets = prefs.targets.map((t) => ({ ...t, on: [...t.on, ...news.filter((k) => !t.on.includes(k))] }))
  return { ...prefs, targets, eventsOffered: [...FORWARD_EVENTS] }
}
export const DEFAULT_FORWARDING: ForwardingPrefs = {
  targets: [],
  awayAfterMs: DEFAULT_AWAY_AFTER_MS,
  eventsOffered: [...FORWARD_EVENTS]
}

/** A target's account (its URL and signing secret) in the key store's forwarding entries, apart from the API keys. */
export const forwardSecretAccount = (targetId: string): string => `forward:${targetId}`
export const isForwardSecretAccount = (account: string): boolean => account.startsWith('forward:')

/** A target as the window lists it: its settings and its last delivery, never its URL or token. */
export interface ForwardTargetView extends ForwardTarget {
  /** ISO times; null when none yet. */
  lastDeliveredAt: string | null
  lastError: string | null
  lastErrorAt: string | null
  /** Events waiting for it (retrying, or behind one that is). */
  pending: number
}

/** What adding or changing a target answers: a JSON webhook's signing secret when one was made for it, shown once. */
export interface SavedTargetView extends ForwardTargetView {
  generatedSecret: string | null
}

/** A target as the window adds it: the pasted URL (it goes to the key store) and its rules. */
export interface ForwardTargetInput {
  url: string
  name?: string
  on?: ForwardEventKind[]
  when?: ForwardWhen
  quietHours?: boolean
  /** A JSON webhook's signing secret (HMAC-SHA256 over the body). */
  secret?: string
}

/** Whether the user is seen as away now, and why. */
export interface PresenceView {
  away: boolean
  locked: boolean
  idleSeconds: number
  awayAfterMs: number
}

/** A test message's outcome: delivered, or the target's reason. */
export interface ForwardTestResult {
  delivered: boolean
  reason: string | null
  target: ForwardTargetView
}
