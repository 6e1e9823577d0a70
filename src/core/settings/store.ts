// The settings store shared by the app (electron-store) and the command (conf): the same file in
// the same directory, every change a locked read-modify-write that re-reads the file inside the
// lock, every write atomic (conf writes through `atomically`), every damaged file repaired.
import fs from 'node:fs'
import path from 'node:path'
import Conf from 'conf'
import type { LastSeenState, ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import type { CiphertextStore } from '../secrets/types'
import {
  describeRecovered,
  interpretConfig,
  serializeConfig,
  type ConfigDocument,
  type Interpreted
} from './config-document'
import { describeDamage, type Damage } from './damage'
import { withFileLock } from './lock'
import { CONFIG_FILE, settingsDir, STATE_FILE } from './paths'
import { settingsSchemaAt } from './schema'
import {
  describeStateDamage,
  interpretState,
  projectSnapshotSchema,
  type BudgetsNotified,
  type StateDocument
} from './state-document'

/** What the store needs of a Conf (or ElectronStore, which extends Conf). */
export interface ConfLike {
  readonly path: string
  store: Record<string, unknown>
}


export interface SettingsStore {
  readonly path: string
  readonly statePath: string
  /** The settings as on disk now (repaired in memory if someone damaged the file since opening). */
  read(): Settings
  /** Locked read-modify-write; `mutate` edits a draft. Throws SettingsValidationError and writes nothing when the result is invalid. */
  update(mutate: (draft: Settings) => void): Promise<Settings>
  /** Messages for the user about repaired files; each is returned once. */
  takeNotices(): string[]
  readLastSeen(): LastSeenState
  writeLastSeen(connectionId: string, state: Record<string, ProjectSnapshot>): Promise<void>
  readBudgetsNotified(): BudgetsNotified
  /** Records (or with null, forgets) that a project's budget was notified. */
  setBudgetNotified(connectionId: string, projectId: string, budgetUsd: number | null): Promise<void>
  /** safeStorage ciphertexts (base64), kept in config.json but out of `Settings`. */
  readonly ciphertexts: CiphertextStore
}

export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError'
}

export interface OpenSettingsOptions {
  /** Defaults to settingsDir(). Ignored for config.json when `conf` is given (conf knows its path). */
  dir?: string
  /** e.g. `new ElectronStore(settingsConfOptions(dir))` in the app; a Conf is made when absent. */
  conf?: ConfLike
  stateConf?: ConfLike
  now?: () => Date
}

/**
 * Options for Conf/ElectronStore that make them share our file and never throw on a damaged one
 * (Conf's own constructor parses the file; we do our own checks and repair right after).
 */
export function settingsConfOptions(dir: string = settingsDir()) {
  return {
    cwd: dir,
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    watch: false,
    clearInvalidConfig: false,
    deserialize: tolerantParse
  }
}

function tolerantParse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function readRaw(file: string): Buffer | null {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-')
}

/** One JSON file handled the same way: read, interpret, repair under the lock, write atomically. */
class DocumentFile<T> {
  constructor(
    private readonly conf: ConfLike,
    private readonly interpret: (raw: Buffer | null) => Interpreted<T>,
    private readonly serialize: (doc: T) => Record<string, unknown>,
    /** The notice for a damaged file, in words about what this file holds. */
    private readonly describe: (damage: Damage, file: string, aside: string, doc: T) => string,
    private readonly now: () => Date,
    private readonly notices: string[]
  ) {}

  get path(): string {
    return this.conf.path
  }

  read(): T {
    return this.interpret(readRaw(this.path)).doc
  }

  /** Under the lock: re-read, repair if needed, apply `mutate` (if any), write when anything changed. */
  async update(mutate?: (doc: T) => void | boolean): Promise<T> {
    return withFileLock(this.path, () => {
      const raw = readRaw(this.path)
      const found = this.interpret(raw)
      if (found.damage && raw) this.keepAside(raw, found.damage, found.doc)
      const doc = found.doc
      const changed = mutate ? mutate(doc) !== false : false
      if (changed || found.rewrite) this.conf.store = this.serialize(doc)
      return doc
    })
  }

  private keepAside(raw: Buffer, damage: Damage, doc: T): void {
    const dir = path.dirname(this.path)
    const base = path.basename(this.path)
    const label = damage.kind === 'newer-version' ? 'newer' : 'corrupt'
    let aside = path.join(dir, `${base}.${label}-${stamp(this.now())}`)
    for (let n = 2; fs.existsSync(aside); n++) aside = path.join(dir, `${base}.${label}-${stamp(this.now())}-${n}`)
    fs.writeFileSync(aside, raw, { mode: 0o600, flag: 'wx' })
    this.notices.push(this.describe(damage, this.path, aside, doc))
  }
}

function clone<T>(value: T): T {
  return structuredClone(value)
}

/** Opens (and if needed repairs or migrates) the settings and state files. */
export async function openSettings(options: OpenSettingsOptions = {}): Promise<SettingsStore> {
  const now = options.now ?? (() => new Date())
  const dir = options.dir ?? settingsDir()
  const conf = options.conf ?? new Conf(settingsConfOptions(dir))
  const stateConf = options.stateConf ?? new Conf({ ...settingsConfOptions(dir), configName: 'state' })
  if (path.basename(conf.path) !== CONFIG_FILE || path.basename(stateConf.path) !== STATE_FILE) {
    throw new Error(`The settings store expects ${CONFIG_FILE} and ${STATE_FILE}, got ${conf.path} and ${stateConf.path}`)
  }
  const notices: string[] = []
  const config = new DocumentFile<ConfigDocument>(
    conf,
    (raw) => interpretConfig(raw, now()),
    serializeConfig,
    (damage, file, aside, doc) => describeDamage(damage, file, aside, describeRecovered(doc.settings)),
    now,
    notices
  )
  const state = new DocumentFile<StateDocument>(
    stateConf,
    interpretState,
    (doc) => ({ ...doc }),
    describeStateDamage,
    now,
    notices
  )
  await config.update()
  await state.update()

  const ciphertexts: CiphertextStore = {
    get: async (id) => config.read().safeStorageKeys[id] ?? null,
    set: async (id, ciphertext) => {
      await config.update((doc) => {
        doc.safeStorageKeys[id] = ciphertext
      })
    },
    delete: async (id) => {
      let existed = false
      await config.update((doc) => {
        existed = id in doc.safeStorageKeys
        delete doc.safeStorageKeys[id]
        return existed
      })
      return existed
    }
  }

  return {
    path: conf.path,
    statePath: stateConf.path,
    read: () => config.read().settings,
    async update(mutate) {
      const doc = await config.update((current) => {
        const draft = clone(current.settings)
        mutate(draft)
        const checked = settingsSchemaAt(now()).safeParse(draft)
        if (!checked.success) {
          const where = checked.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`)
            .join('; ')
          throw new SettingsValidationError(`These settings are not valid, nothing was saved: ${where}`)
        }
        current.settings = checked.data
      })
      return clone(doc.settings)
    },
    takeNotices: () => notices.splice(0, notices.length),
    readLastSeen: () => state.read().lastSeen,
    async writeLastSeen(connectionId, snapshots) {
      for (const [projectId, snapshot] of Object.entries(snapshots)) {
        const checked = projectSnapshotSchema.safeParse(snapshot)
        if (!checked.success) {
          throw new SettingsValidationError(`The last seen state of project ${projectId} is not valid: ${checked.error.issues[0]?.message}`)
        }
      }
      await state.update((doc) => {
        doc.lastSeen[connectionId] = clone(snapshots)
      })
    },
    readBudgetsNotified: () => state.read().budgetsNotified,
    async setBudgetNotified(connectionId, projectId, budgetUsd) {
      await state.update((doc) => {
        const forConnection = (doc.budgetsNotified[connectionId] ??= {})
        if (budgetUsd === null) delete forConnection[projectId]
        else forConnection[projectId] = budgetUsd
      })
    },
    ciphertexts
  }
}
