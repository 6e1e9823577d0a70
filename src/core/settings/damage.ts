// Reading a JSON file that may be damaged, and saying what was wrong in words a user can act on.
import { readIndentedJson } from './indented-json'
import { salvageJson } from './salvage'

export type DamageKind = 'empty' | 'not-json' | 'truncated' | 'garbled' | 'wrong-type' | 'invalid' | 'newer-version'

export interface Damage {
  kind: DamageKind
  /** Settings paths that were reset to defaults (never their values: they could be anything). */
  reset: string[]
  /** For newer-version: the version found. */
  version?: number
}

export type JsonRead =
  | {
      ok: true
      value: Record<string, unknown>
      damage: 'truncated' | 'garbled' | null
      /** Whether an object or list of `value` may miss something (read past damage, or cut). */
      isPartial(container: unknown): boolean
    }
  | { ok: false; damage: Damage }

const WHOLE = () => false

/** Above this size a damaged file is read line by line only (see readJsonObject). */
export const PREFIX_READ_MAX = 1024 * 1024

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (value === null) return 'null'
  return `a ${typeof value}`
}

/** The text of the file: UTF-8 as we write it, or UTF-16 with its byte order mark as some editors save it. */
function decode(raw: Buffer): string {
  if (raw[0] === 0xff && raw[1] === 0xfe) return raw.subarray(2).toString('utf16le')
  if (raw[0] === 0xfe && raw[1] === 0xff) {
    const swapped = Buffer.from(raw.subarray(2, raw.length - (raw.length % 2)))
    return swapped.swap16().toString('utf16le')
  }
  return raw.toString('utf8').replace(/^\uFEFF/, '')
}

/**
 * Parses a settings-like file: a JSON object, or what can be read of one. Past damage, two readers
 * each keep what they can: line by line (the store's own layout: reads past any number of damaged
 * places) and the longest readable start (any layout); a top-level member read by the first wins.
 */
export function readJsonObject(raw: Buffer): JsonRead {
  const text = decode(raw)
  if (text.trim() === '') return { ok: false, damage: { kind: 'empty', reset: [] } }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const lines = readIndentedJson(text)
    // The start reader parses long prefixes a few times over: for a large file (the monitor's state,
    // always in the store's layout) it runs only when the line reader found nothing.
    const prefix =
      text.length <= PREFIX_READ_MAX || Object.keys(lines.value).length === 0 ? salvageJson(text) : undefined
    const recovered = { ...(isRecord(prefix?.value) ? prefix.value : {}), ...lines.value }
    if (Object.keys(recovered).length === 0) return { ok: false, damage: { kind: 'not-json', reset: [] } }
    const cut = new Set(prefix?.partial)
    // Both sets hold objects only: anything else is in neither.
    const isPartial = (container: unknown) => lines.partial.has(container as object) || cut.has(container as object)
    const cutShort = prefix ? prefix.cutShort : lines.cutShort
    return { ok: true, value: recovered, damage: cutShort ? 'truncated' : 'garbled', isPartial }
  }
  if (!isRecord(value)) return { ok: false, damage: { kind: 'wrong-type', reset: [describeType(value)] } }
  return { ok: true, value, damage: null, isPartial: WHOLE }
}

/** Dotted paths of validation issues, shortened to where a user would look. */
export function issuePaths(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>, limit = 8): string[] {
  // Stop at the first list index: "watched.c2", not "watched.c2.3.budgetUsd".
  const where = (path: ReadonlyArray<PropertyKey>) => {
    const index = path.findIndex((segment) => typeof segment === 'number')
    return (index === -1 ? path : path.slice(0, index)).slice(0, 3).map(String).join('.') || '(whole file)'
  }
  const paths = [...new Set(issues.map((issue) => where(issue.path)))]
  return paths.length > limit ? [...paths.slice(0, limit), `and ${paths.length - limit} more`] : paths
}

export function describeDamage(damage: Damage, file: string, aside: string | null, recovered: string): string {
  const kept = aside ? ` The original was kept as ${aside}.` : ''
  switch (damage.kind) {
    case 'empty':
      return `${file} was empty; default settings are in use.${kept}`
    case 'not-json':
      return `${file} was not valid JSON and nothing in it could be read; default settings are in use.${kept}`
    case 'truncated':
      return `${file} was cut short; ${recovered}, and what could not be read is at its defaults.${kept}`
    case 'garbled':
      return `${file} was damaged and could be read only in part; ${recovered}, and what could not be read is at its defaults.${kept}`
    case 'wrong-type':
      return `${file} held ${damage.reset[0] ?? 'something else'} instead of settings; default settings are in use.${kept}`
    case 'invalid':
      return `Some entries of ${file} were invalid and were dropped or reset to defaults (${damage.reset.join(', ')}); ${recovered}.${kept}`
    case 'newer-version':
      return `${file} was written by a newer Agent Tray (file version ${damage.version}); this version ${recovered} from it, and its other settings are at their defaults.${kept}`
  }
}
