// The settings store shared by the app (through electron-store) and the command (through conf):
// the same files in the same directory, each a DocumentFile (document-file.ts).
import path from 'node:path'
import Conf from 'conf'
import type { LastSeenState, ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import type { AgentMemory } from '../providers/board'
import type { CiphertextStore } from '../secrets/types'
import {
  type ConfigDocument,
  describeConfigFinding,
  interpretConfig,
  serializeConfig,
  withoutCiphertexts
} from './config-document'
import { type ConfLike, DocumentFile, settingsConfOptions } from './document-file'
import { checkSettingsFile, onFile } from './file-error'
import { CONFIG_FILE, settingsDir, STATE_FILE } from './paths'
import { makePrivateDir } from './private-files'
import { settingsSchemaAt } from './schema'
import {
  type BudgetMemory,
  type BudgetsNotified,
  describeStateFinding,
  interpretState,
  projectSnapshotSchema,
  type StateDocument
} from './state-document'

export { type ConfLike, settingsConfOptions }

export interface SettingsStore {
  readonly path: string
  readonly statePath: string
  read(): Settings
  /** `mutate` edits a draft; an invalid result throws SettingsValidationError, and nothing is written. */
  update(mutate: (draft: Settings) => void): Promise<Settings>
  /** Messages for the user about repaired files, each returned once. */
  takeNotices(): string[]
  readLastSeen(): LastSeenState
  writeLastSeen(connectionId: string, state: Record<string, ProjectSnapshot>): Promise<void>
  readBudgetsNotified(): BudgetsNotified
  /** null forgets it. */
  setBudgetNotified(connectionId: string, projectId: string, budgetUsd: number | null): Promise<void>
  readBudgetMemory(): BudgetMemory
  /** Replaces the parts given (each has one writer: the budget tracker, the notification gate). */
  writeBudgetMemory(parts: Partial<BudgetMemory>): Promise<void>
  /** Per connection id: what an agent account's tasks were last seen as (core/providers/board.ts). */
  readAgentMemory(): Record<string, AgentMemory>
  /** null forgets the connection's. */
  writeAgentMemory(connectionId: string, memory: AgentMemory | null): Promise<void>
  /** safeStorage ciphertexts (base64) in config.json, out of `Settings`: the API keys', the forwarding targets'. */
  readonly ciphertexts: CiphertextStore
  readonly forwardingCiphertexts: CiphertextStore
}

export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError'
}

export interface OpenSettingsOptions {
  /** Defaults to settingsDir(); a `conf` given knows its own path. */
  dir?: string
  /** Better a function than a made store: the file is checked before the store reads it. */
  conf?: ConfLike | (() => ConfLike)
  stateConf?: ConfLike | (() => ConfLike)
  now?: () => Date
}

function makeConf(given: ConfLike | (() => ConfLike) | undefined, dir: string, configName: string): ConfLike {
  if (given !== undefined && typeof given !== 'function') return given
  const file = path.join(dir, `${configName}.json`)
  checkSettingsFile(file)
  return onFile(file, 'read', given ?? (() => new Conf({ ...settingsConfOptions(dir), configName })))
}

/** Opens (and if needed repairs or migrates) the settings and state files. */
export async function openSettings(options: OpenSettingsOptions = {}): Promise<SettingsStore> {
  const now = options.now ?? (() => new Date())
  const dir = options.dir ?? settingsDir()
  try {
    makePrivateDir(dir)
  } catch {
    // A directory that cannot be made is reported by the file checks below, in their words.
  }
  const conf = makeConf(options.conf, dir, 'config')
  const stateConf = makeConf(options.stateConf, dir, 'state')
  if (path.basename(conf.path) !== CONFIG_FILE || path.basename(stateConf.path) !== STATE_FILE) {
    throw new Error(
      `The settings store expects ${CONFIG_FILE} and ${STATE_FILE}, got ${conf.path} and ${stateConf.path}`
    )
  }
  const notices: string[] = []
  const config = new DocumentFile<ConfigDocument>(
    conf,
    (value) => interpretConfig(value, now()),
    serializeConfig,
    describeConfigFinding,
    now,
    notices,
    { asideBytes: withoutCiphertexts, keepLastGood: true }
  )
  const state = new DocumentFile<StateDocument>(
    stateConf,
    interpretState,
    (doc) => ({ ...doc }),
    describeStateFinding,
    now,
    notices,
    { keepLastGood: true }
  )
  await config.open()
  await state.open()

  const ciphertextsIn = (field: 'safeStorageKeys' | 'forwardingSafeStorageKeys'): CiphertextStore => ({
    ids: async () => Object.keys(config.read()[field]),
    get: async (id) => config.read()[field][id] ?? null,
    set: (id, ciphertext) => config.update((doc) => void (doc[field][id] = ciphertext)).then(() => undefined),
    delete: async (id) => {
      let existed = false
      await config.update((doc) => (existed = id in doc[field]) && delete doc[field][id])
      return existed
    }
  })

  return {
    path: conf.path,
    statePath: stateConf.path,
    read: () => config.read().settings,
    async update(mutate) {
      const doc = await config.update((current) => {
        const draft = structuredClone(current.settings)
        mutate(draft)
        const checked = settingsSchemaAt(now()).safeParse(draft)
        if (!checked.success) {
          // Every issue of a draft has a path: the draft is an object, and every rule sits on a field.
          const where = checked.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
            .join('; ')
          throw new SettingsValidationError(`These settings are not valid, nothing was saved: ${where}`)
        }
        current.settings = checked.data
      })
      return structuredClone(doc.settings)
    },
    takeNotices: () => notices.splice(0, notices.length),
    readLastSeen: () => state.read().lastSeen,
    async writeLastSeen(connectionId, snapshots) {
      for (const [projectId, snapshot] of Object.entries(snapshots)) {
        const { error } = projectSnapshotSchema.safeParse(snapshot)
        if (error)
          throw new SettingsValidationError(
            `The last seen state of project ${projectId} is not valid: ${error.issues[0]?.message}`
          )
      }
      await state.update((doc) => void (doc.lastSeen[connectionId] = structuredClone(snapshots)))
    },
    readBudgetsNotified: () => state.read().budgetsNotified,
    async setBudgetNotified(connectionId, projectId, budgetUsd) {
      await state.update((doc) => {
        const forConnection = (doc.budgetsNotified[connectionId] ??= {})
        if (budgetUsd === null) delete forConnection[projectId]
        else forConnection[projectId] = budgetUsd
      })
    },
    readBudgetMemory: () => structuredClone(state.read().budgets),
    async writeBudgetMemory(parts) {
      await state.update((doc) => void (doc.budgets = { ...doc.budgets, ...structuredClone(parts) }))
    },
    readAgentMemory: () => structuredClone(state.read().agents),
    async writeAgentMemory(connectionId, memory) {
      await state.update((doc) => {
        if (memory === null) delete doc.agents[connectionId]
        else doc.agents[connectionId] = structuredClone(memory)
      })
    },
    ciphertexts: ciphertextsIn('safeStorageKeys'),
    forwardingCiphertexts: ciphertextsIn('forwardingSafeStorageKeys')
  }
}
