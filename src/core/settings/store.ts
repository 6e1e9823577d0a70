// The settings store shared by the app and the command (both through conf): the same file in
// the same directory, every change a locked read-modify-write that re-reads the file inside the
// lock, every write atomic (conf writes through `atomically`), every damaged file kept aside and
// repaired. A file that cannot be used at all (a directory in its place, no permission) is a
// SettingsFileError with a one-line message; once open, reading never throws (see DocumentFile).
import fs from 'node:fs'
import path from 'node:path'
import Conf from 'conf'
import type { LastSeenState, ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import type { CiphertextStore } from '../secrets/types'
import {
  type ConfigDocument,
  describeRecovered,
  interpretConfig,
  type Interpreted,
  serializeConfig,
  withoutCiphertexts
} from './config-document'
import { type Damage, describeDamage } from './damage'
import { checkSettingsFile, onFile, readSettingsFile, SettingsFileError } from './file-error'
import { writeIndentedJson } from './indented-json'
import { withFileLock } from './lock'
import { CONFIG_FILE, settingsDir, STATE_FILE } from './paths'
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files'
import { settingsSchemaAt } from './schema'
import {
  type BudgetMemory,
  type BudgetsNotified,
  describeStateDamage,
  interpretState,
  projectSnapshotSchema,
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
  readBudgetMemory(): BudgetMemory
  /** Replaces the parts given (each part has one writer: the budget tracker, the notification gate). */
  writeBudgetMemory(parts: Partial<BudgetMemory>): Promise<void>
  /** safeStorage ciphertexts (base64), kept in config.json but out of `Settings`. */
  readonly ciphertexts: CiphertextStore
  /** Forwarding targets' safeStorage ciphertexts: a map of their own, apart from the API keys'. */
  readonly forwardingCiphertexts: CiphertextStore
}

export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError'
}

export interface OpenSettingsOptions {
  /** Defaults to settingsDir(). Ignored for config.json when `conf` is given (conf knows its path). */
  dir?: string
  /**
   * e.g. `() => new Conf(settingsConfOptions(dir))`; a Conf is made when absent.
   * A function is better than a made store: the file is checked before the store's constructor
   * reads it, and what it throws becomes a SettingsFileError.
   */
  conf?: ConfLike | (() => ConfLike)
  stateConf?: ConfLike | (() => ConfLike)
  now?: () => Date
}

/**
 * Options for Conf/ElectronStore that make them share our file, in our layout, and never parse it:
 * the store reads the file itself, damaged or not (Conf would throw, or silently drop it).
 */
export function settingsConfOptions(dir: string = settingsDir()) {
  return {
    cwd: dir,
    configFileMode: PRIVATE_FILE_MODE,
    accessPropertiesByDotNotation: false,
    watch: false,
    clearInvalidConfig: false,
    serialize: writeIndentedJson,
    deserialize: () => ({})
  }
}

function makeConf(given: ConfLike | (() => ConfLike) | undefined, file: string, make: () => ConfLike): ConfLike {
  if (given !== undefined && typeof given !== 'function') return given
  checkSettingsFile(file)
  return onFile(file, 'read', given ?? make)
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-')
}

/** One JSON file handled the same way: read, interpret, repair under the lock, write atomically. */
export class DocumentFile<T> {
  /** The document as last read, for when the file cannot be read any more (see read). */
  private last: T | null = null
  /** The read failure already told since the last good read, so it is told once. */
  private toldFailure: string | null = null

  constructor(
    private readonly conf: ConfLike,
    private readonly interpret: (raw: Buffer | null) => Interpreted<T>,
    private readonly serialize: (doc: T) => Record<string, unknown>,
    /** The notice for a damaged file, in words about what this file holds. */
    private readonly describe: (damage: Damage, file: string, aside: string, doc: T) => string,
    private readonly now: () => Date,
    private readonly notices: string[],
    /** What of the damaged bytes is kept aside (config.json's copy holds no key ciphertexts). */
    private readonly asideBytes: (raw: Buffer) => Buffer = (raw) => raw
  ) {}

  get path(): string {
    return this.conf.path
  }

  /**
   * The document on disk now (a damaged one read as far as it goes). When the file cannot be read
   * at all (it became a directory, or unreadable, while a process runs) this is the document as
   * last read, and the user is told once: reading settings must not crash a running app.
   */
  read(): T {
    try {
      const doc = this.interpret(readSettingsFile(this.path)).doc
      this.last = doc
      this.toldFailure = null
      return doc
    } catch (error) {
      if (!(error instanceof SettingsFileError) || this.last === null) throw error
      if (this.toldFailure !== error.message) {
        this.toldFailure = error.message
        this.notices.push(
          `${error.message.replace(/; nothing was changed\.$/, '.')} Until it can be read again, what was last read from it is in use.`
        )
      }
      return structuredClone(this.last)
    }
  }

  /** Under the lock: re-read, repair if needed, apply `mutate` (if any), write when anything changed. */
  async update(mutate?: (doc: T) => void | boolean): Promise<T> {
    return withFileLock(this.path, () => {
      const raw = readSettingsFile(this.path)
      const found = this.interpret(raw)
      // The damaged bytes are safe aside before anything is written over them.
      const aside = found.damage && raw ? this.keepAside(raw, found.damage) : null
      const doc = found.doc
      const changed = mutate ? mutate(doc) !== false : false
      if (changed || found.rewrite) onFile(this.path, 'write', () => (this.conf.store = this.serialize(doc)))
      if (aside && found.damage) this.notices.push(this.describe(found.damage, this.path, aside, doc))
      this.last = doc
      return doc
    })
  }

  private keepAside(raw: Buffer, damage: Damage): string {
    const dir = path.dirname(this.path)
    const base = path.basename(this.path)
    const label = damage.kind === 'newer-version' ? 'newer' : 'corrupt'
    let aside = path.join(dir, `${base}.${label}-${stamp(this.now())}`)
    for (let n = 2; fs.existsSync(aside); n++) aside = path.join(dir, `${base}.${label}-${stamp(this.now())}-${n}`)
    onFile(aside, 'keep a copy of', () =>
      fs.writeFileSync(aside, this.asideBytes(raw), { mode: PRIVATE_FILE_MODE, flag: 'wx' })
    )
    return aside
  }
}

function clone<T>(value: T): T {
  return structuredClone(value)
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
  const conf = makeConf(options.conf, path.join(dir, CONFIG_FILE), () => new Conf(settingsConfOptions(dir)))
  const stateConf = makeConf(
    options.stateConf,
    path.join(dir, STATE_FILE),
    () => new Conf({ ...settingsConfOptions(dir), configName: 'state' })
  )
  if (path.basename(conf.path) !== CONFIG_FILE || path.basename(stateConf.path) !== STATE_FILE) {
    throw new Error(
      `The settings store expects ${CONFIG_FILE} and ${STATE_FILE}, got ${conf.path} and ${stateConf.path}`
    )
  }
  const notices: string[] = []
  const config = new DocumentFile<ConfigDocument>(
    conf,
    (raw) => interpretConfig(raw, now()),
    serializeConfig,
    (damage, file, aside, doc) => describeDamage(damage, file, aside, describeRecovered(doc.settings)),
    now,
    notices,
    withoutCiphertexts
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

  const ciphertextsIn = (field: 'safeStorageKeys' | 'forwardingSafeStorageKeys'): CiphertextStore => ({
    ids: async () => Object.keys(config.read()[field]),
    get: async (id) => config.read()[field][id] ?? null,
    set: async (id, ciphertext) => {
      await config.update((doc) => {
        doc[field][id] = ciphertext
      })
    },
    delete: async (id) => {
      let existed = false
      await config.update((doc) => {
        existed = id in doc[field]
        delete doc[field][id]
        return existed
      })
      return existed
    }
  })
  const ciphertexts = ciphertextsIn('safeStorageKeys')
  const forwardingCiphertexts = ciphertextsIn('forwardingSafeStorageKeys')

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
          // Every issue of a draft has a path: the draft is an object, and every rule sits on a field.
          const where = checked.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
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
          throw new SettingsValidationError(
            `The last seen state of project ${projectId} is not valid: ${checked.error.issues[0]?.message}`
          )
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
    readBudgetMemory: () => clone(state.read().budgets),
    async writeBudgetMemory(parts) {
      await state.update((doc) => {
        doc.budgets = { ...doc.budgets, ...clone(parts) }
      })
    },
    ciphertexts,
    forwardingCiphertexts
  }
}
