// What an account of an agent service is, as every adapter opens one (registry.ts lists them): apart, so an adapter's
// opener can be typed without importing the registry that imports it.
import type { ProviderDescriptor, ProviderStep, ProviderTask } from '../../shared/provider'
import type { ReportDropped } from './records'

export interface AgentAccountOptions {
  key: string
  /** The account's name, for the words of an error. */
  account: string
  baseUrl: string
  now?: () => number
  onDropped?: ReportDropped
  /** Where the service streams a running task (Cursor): what the stream told between polls. */
  onLive?: (news: LiveNews) => void
}

/** A running task's stream between polls: its steps so far (replacing those told before), or a sign that its status
 * moved, so a poll now would see it. */
export type LiveNews = { kind: 'steps'; taskId: string; steps: ProviderStep[] } | { kind: 'moved'; taskId: string }

export type AgentPoll = { changed: false } | { changed: true; tasks: ProviderTask[] }

/** One account of a service other than Workser: its tasks, its etiquette, and the answers it takes. */
export interface AgentAccount {
  readonly descriptor: ProviderDescriptor
  /** Every task of the account; `changed: false` when the service said nothing moved (a 304). */
  poll(signal?: AbortSignal): Promise<AgentPoll>
  /** One task with its steps. */
  task(taskId: string, signal?: AbortSignal): Promise<ProviderTask>
  /** How long the service's etiquette asks before the next poll (0: now). */
  waitMs(): number
  /** The documented call that proves a key (login, the key check); throws the service's error. */
  checkKey(signal?: AbortSignal): Promise<void>
  /** Present only where the descriptor's capabilities say so. */
  approve?(taskId: string, signal?: AbortSignal): Promise<void>
  reply?(taskId: string, message: string, signal?: AbortSignal): Promise<void>
  /** Whether the task's steps are followed live now (a stream open); absent where the service has no stream. */
  isLive?(taskId: string): boolean
  /** Off while the watch is paused (asleep, offline, the user's pause): every stream stops; on again, the next poll
   * opens them, those that failed for the network included. Absent where the service has no stream. */
  setLive?(on: boolean): void
  close(): Promise<void>
}
