// What the commands need from the core, as small interfaces: main.ts wires the real parts,
// tests may wire the same real parts against a temp dir and a test keyring.
import type { InvalidRecordIssue, ServiceClient } from '../core/client'
import type { UsageStore } from '../core/costs/usage-store'
import type { SecretStore } from '../core/secrets/types'
import type { TzOffset } from '../shared/cost'
import type { Settings } from '../shared/settings'

export type CliClient = ServiceClient

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  /** Told about each record the client skipped (see warnings.ts). */
  onInvalidRecord?: (issue: InvalidRecordIssue) => void
}

/** What the commands use of the core's SettingsStore. */
export interface SettingsPort {
  read(): Settings
  update(mutate: (draft: Settings) => void): Promise<Settings>
  takeNotices(): string[]
  /** The app's safeStorage ciphertexts in config.json: `logout` removes a key from there too. */
  ciphertexts?: { delete(connectionId: string): Promise<boolean> }
}

/** The keychain as the commands use it: `list` restores a connection config.json lost, and logs out by origin. */
export type SecretPort = Pick<SecretStore, 'get' | 'set' | 'delete' | 'list' | 'forwarding'>

export interface CliDeps {
  createClient(options: ClientOptions): CliClient
  /** Opened on first use: commands that need no settings never touch the file. */
  settings(): Promise<SettingsPort>
  /** Opened on first use; throws (see isKeychainUnavailable) when no keychain can be reached. */
  secrets(): SecretPort | Promise<SecretPort>
  isKeychainUnavailable(error: unknown): boolean
  /** Asks for a secret on the terminal without echoing it. */
  promptHidden(question: string): Promise<string>
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** The polling schedule's jitter (core/monitor/scheduler.ts); tests fix it. */
  random(): number
  /** Ends `watch` (Ctrl-C in main, the test in tests). */
  signal?: AbortSignal
  now(): Date
  /** The user's time zone, for which day a cost belongs to (`costs`). */
  tz: TzOffset
  /** The usage records' cache next to state.json (`costs`). */
  openUsages(): Promise<UsageStore>
  newId(): string
  /** Hands a link to the desktop's opener (`open`). */
  openLink(url: string): Promise<void>
}
