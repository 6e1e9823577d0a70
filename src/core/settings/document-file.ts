// One JSON file through conf (or electron-store): every change a locked read-modify-write, atomic,
// then copied beside as the last good copy. Damage is kept aside and repaired, never thrown.
import fs from 'node:fs'
import { isJsonObject } from '../../shared/json-object'
import { checkSettingsFile, onFile, SettingsFileError } from './file-error'
import { withFileLock } from './lock'
import type { JsonObject } from './migrate'
import { PRIVATE_FILE_MODE } from './private-files'

export type ConfLike = { readonly path: string; store: Record<string, unknown> }

/** Why a file is kept aside: not a JSON object, wrong values (at these paths), or a newer version's. */
export type Finding =
  | { kind: 'not-json'; why: string; lastGood: string | null; lastGoodNewer?: boolean }
  | { kind: 'invalid'; wrong: string[] }
  | { kind: 'newer-version'; version: number }

/** `rewrite`: an older version, or repaired; `finding`: kept aside before that write, and told. */
export type Interpreted<T> = { doc: T; rewrite: boolean; finding?: Finding | undefined }

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

/** For Conf/ElectronStore: our file and layout, no defaults (so conf writes nothing before we check). */
export function settingsConfOptions(dir: string) {
  return {
    cwd: dir,
    configFileMode: PRIVATE_FILE_MODE,
    deserialize: readObject,
    // conf's own layout, named: the soak cuts a write of it short.
    serialize: (value: unknown) => JSON.stringify(value, undefined, '\t')
  }
}

export class DocumentFile<T> {
  /** The document as last read, and the read failure told since (each told once). */
  private last: T | null = null
  private toldFailure: string | null = null

  constructor(
    private readonly conf: ConfLike,
    private readonly interpret: (value: JsonObject) => Interpreted<T>,
    private readonly serialize: (doc: T) => JsonObject,
    private readonly describe: (finding: Finding, file: string, aside: string, doc: T) => string,
    private readonly now: () => Date,
    private readonly notices: string[],
    // What of the file is kept aside (config.json's copy holds no key ciphertexts); a cache needs no last good copy.
    private readonly options: { asideBytes?: (raw: Buffer) => Buffer; keepLastGood?: boolean } = {}
  ) {}

  get path(): string {
    return this.conf.path
  }

  /** Beside the file: config.json → config.last-good.json. */
  get lastGoodPath(): string {
    return this.path.replace(/\.json$/, '.last-good.json')
  }

  /** The document on disk now; when the file cannot be read any more, the one last read (told once). */
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
    // The copy is of a whole file (conf writes by rename), and itself written by rename.
    if (!fs.existsSync(this.lastGoodPath)) this.keepLastGood()
    return (this.last = doc)
  }

  /** Under the lock: re-read, keep aside and repair if needed, apply `mutate` (if any), write when anything changed. */
  async update(mutate?: (doc: T) => void | boolean): Promise<T> {
    return withFileLock(this.path, () => {
      const { doc, rewrite, finding } = this.load()
      // A refused change (it throws) writes nothing, so keeps nothing aside: the repair that follows keeps one copy.
      const changed = mutate ? mutate(doc) !== false : false
      // The file as found is safe aside before anything is written over it; a newer version's last good copy too.
      const aside = finding ? this.keepAside(this.path, finding.kind === 'newer-version' ? 'newer' : 'corrupt') : null
      if (finding?.kind === 'not-json' && finding.lastGoodNewer)
        finding.lastGood = this.keepAside(this.lastGoodPath, 'newer')
      if (changed || rewrite) this.write(doc)
      // Not JSON, no last good copy: moved aside; the defaults stay in memory until a change.
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
    const lastGoodNewer = lastGood?.finding?.kind === 'newer-version'
    return {
      doc: lastGood?.doc ?? this.interpret({}).doc,
      rewrite: lastGood !== null,
      finding: { kind: 'not-json', why, lastGood: lastGood === null ? null : this.lastGoodPath, lastGoodNewer }
    }
  }

  private readLastGood(): Interpreted<T> | null {
    try {
      const value = readObject(fs.readFileSync(this.lastGoodPath, 'utf8'))
      return UNREADABLE in value ? null : this.interpret(value)
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
    // It holds key ciphertexts: private whatever the file's mode, and through a rename so never half written.
    const temporary = `${this.lastGoodPath}.${process.pid}.tmp`
    try {
      fs.rmSync(temporary, { force: true })
      fs.writeFileSync(temporary, fs.readFileSync(this.path), { mode: PRIVATE_FILE_MODE, flag: 'wx' })
      fs.renameSync(temporary, this.lastGoodPath)
    } catch {
      // No room, say: no copy rather than an older one, which may hold keys removed since.
      for (const leftover of [temporary, this.lastGoodPath]) {
        try {
          fs.rmSync(leftover, { force: true, recursive: true })
        } catch {
          // A name too long to exist has nothing to remove.
        }
      }
    }
  }

  private keepAside(file: string, kind: 'newer' | 'corrupt'): string {
    const raw = onFile(file, 'read', () => fs.readFileSync(file))
    const name = `${file}.${kind}-${this.now().toISOString().replace(/[:.]/g, '-')}`
    let aside = name
    for (let n = 2; fs.existsSync(aside); n++) aside = `${name}-${n}`
    const bytes = this.options.asideBytes?.(raw) ?? raw
    onFile(aside, 'keep a copy of', () => fs.writeFileSync(aside, bytes, { mode: PRIVATE_FILE_MODE, flag: 'wx' }))
    return aside
  }
}
