// One JSON file read and written through conf (or electron-store, built on it): read on every
// read, every change a locked read-modify-write, every write atomic (conf writes through
// `atomically`) and followed by a last good copy beside the file. A file that is not a JSON object
// is kept aside and the last good copy (or, with none, the defaults) is used; one with wrong values
// is kept aside and repaired. A file that cannot be used at all (a directory in its place, no
// permission) is a SettingsFileError with a one-line message; once open, reading never throws.
import fs from 'node:fs'
import path from 'node:path'
import { checkSettingsFile, onFile, SettingsFileError } from './file-error'
import { withFileLock } from './lock'
import { isJsonObject, type JsonObject } from './migrate'
import { PRIVATE_FILE_MODE } from './private-files'

/** What the store needs of a Conf (or ElectronStore, which extends Conf). */
export interface ConfLike {
  readonly path: string
  store: Record<string, unknown>
}

/** Why a file is kept aside: not a JSON object, wrong values (at these paths), or a newer version's. */
export type Finding =
  | { kind: 'not-json'; why: string; lastGood: string | null }
  | { kind: 'invalid'; wrong: string[] }
  | { kind: 'newer-version'; version: number }

export interface Interpreted<T> {
  doc: T
  /** The file must be written back (an older version, or repaired). */
  rewrite: boolean
  /** Kept aside before that write, and told. */
  finding?: Finding | undefined
}

const UNREADABLE = Symbol('unreadable')

/** conf's deserialize: a file that is not a JSON object reads as a mark saying why, so conf neither throws nor rewrites it. */
function readObject(text: string): JsonObject {
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return { [UNREADABLE]: text.trim() === '' ? 'was empty' : 'was not valid JSON and nothing in it could be read' }
  }
  if (isJsonObject(value)) return value
  const held = Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`
  return { [UNREADABLE]: `held ${held}` }
}

/** Options for Conf/ElectronStore that make them share our file, in our layout, without defaults (conf writes none before we check). */
export function settingsConfOptions(dir: string) {
  return {
    cwd: dir,
    configFileMode: PRIVATE_FILE_MODE,
    deserialize: readObject,
    // conf's own layout, named: a tab per level (the soak cuts a write of it short).
    serialize: (value: unknown) => JSON.stringify(value, undefined, '\t')
  }
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-')
}

export class DocumentFile<T> {
  /** The document as last read, for when the file cannot be read any more (see read). */
  private last: T | null = null
  /** The read failure already told since the last good read, so it is told once. */
  private toldFailure: string | null = null

  constructor(
    private readonly conf: ConfLike,
    private readonly interpret: (value: JsonObject) => Interpreted<T>,
    private readonly serialize: (doc: T) => JsonObject,
    /** The notice for a file kept aside, in words about what this file holds. */
    private readonly describe: (finding: Finding, file: string, aside: string, doc: T) => string,
    private readonly now: () => Date,
    private readonly notices: string[],
    private readonly options: {
      /** What of the file is kept aside (config.json's copy holds no key ciphertexts). */
      asideBytes?: (raw: Buffer) => Buffer
      /** A cache needs no last good copy. */
      keepLastGood?: boolean
    } = {}
  ) {}

  get path(): string {
    return this.conf.path
  }

  /** Beside the file: config.json → config.last-good.json. */
  get lastGoodPath(): string {
    return this.path.replace(/(\.json)?$/, '.last-good.json')
  }

  /**
   * The document on disk now. When the file cannot be read at all (it became a directory, or
   * unreadable, while a process runs) this is the document as last read, and the user is told once.
   */
  read(): T {
    try {
      const doc = this.load().doc
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

  /** The document at open. Read without the lock, so a killed holder's lock delays nothing; locked only to write. */
  async open(): Promise<T> {
    const { doc, rewrite, finding } = this.load()
    if (rewrite || finding) return this.update()
    // Writes are atomic renames: a copy made without the lock is of a whole file.
    if (!fs.existsSync(this.lastGoodPath)) this.keepLastGood()
    return (this.last = doc)
  }

  /** Under the lock: re-read, keep aside and repair if needed, apply `mutate` (if any), write when anything changed. */
  async update(mutate?: (doc: T) => void | boolean): Promise<T> {
    return withFileLock(this.path, () => {
      const { doc, rewrite, finding } = this.load()
      // The file as found is safe aside before anything is written over it.
      const aside = finding ? this.keepAside(finding) : null
      const changed = mutate ? mutate(doc) !== false : false
      if (changed || rewrite) this.write(doc)
      // Not JSON, and no last good copy: the file is moved aside, and the defaults stay in memory until a change.
      else if (finding) onFile(this.path, 'write', () => fs.rmSync(this.path))
      else if (!fs.existsSync(this.lastGoodPath)) this.keepLastGood()
      if (aside && finding) this.notices.push(this.describe(finding, this.path, aside, doc))
      this.last = doc
      return doc
    })
  }

  private load(): Interpreted<T> {
    checkSettingsFile(this.path)
    const value = onFile(this.path, 'read', () => this.conf.store)
    const why = (value as { [UNREADABLE]?: string })[UNREADABLE]
    if (typeof why !== 'string') return this.interpret(value)
    const lastGood = this.options.keepLastGood ? this.readLastGood() : null
    return {
      doc: lastGood ?? this.interpret({}).doc,
      rewrite: lastGood !== null,
      finding: { kind: 'not-json', why, lastGood: lastGood === null ? null : this.lastGoodPath }
    }
  }

  private readLastGood(): T | null {
    try {
      const value = readObject(fs.readFileSync(this.lastGoodPath, 'utf8'))
      return UNREADABLE in value ? null : this.interpret(value).doc
    } catch {
      return null
    }
  }

  private write(doc: T): void {
    onFile(this.path, 'write', () => (this.conf.store = this.serialize(doc)))
    this.keepLastGood()
  }

  private keepLastGood(): void {
    if (!this.options.keepLastGood) return
    try {
      fs.copyFileSync(this.path, this.lastGoodPath)
    } catch {
      // No file yet, or no room for the copy: the file itself is written, and the copy is only a spare.
    }
  }

  private keepAside(finding: Finding): string {
    const raw = onFile(this.path, 'read', () => fs.readFileSync(this.path))
    const dir = path.dirname(this.path)
    const base = path.basename(this.path)
    const label = finding.kind === 'newer-version' ? 'newer' : 'corrupt'
    let aside = path.join(dir, `${base}.${label}-${stamp(this.now())}`)
    for (let n = 2; fs.existsSync(aside); n++) aside = path.join(dir, `${base}.${label}-${stamp(this.now())}-${n}`)
    const bytes = this.options.asideBytes?.(raw) ?? raw
    onFile(aside, 'keep a copy of', () => fs.writeFileSync(aside, bytes, { mode: PRIVATE_FILE_MODE, flag: 'wx' }))
    return aside
  }
}
