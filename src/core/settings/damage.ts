// Reading a JSON file that may be damaged, and saying what was wrong in words a user can act on.
import { salvageJson } from './salvage'

export type DamageKind = 'not-json' | 'truncated' | 'wrong-type' | 'invalid' | 'newer-version'

export interface Damage {
  kind: DamageKind
  /** Settings paths that were reset to defaults (never their values: they could be anything). */
  reset: string[]
  /** For newer-version: the version found. */
  version?: number
}

export type JsonRead =
  | { ok: true; value: Record<string, unknown>; truncated: boolean }
  | { ok: false; damage: Damage }

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (value === null) return 'null'
  return `a ${typeof value}`
}

/** Parses a settings-like file: a JSON object, or the readable start of one. */
export function readJsonObject(raw: Buffer): JsonRead {
  const text = raw.toString('utf8').replace(/^\uFEFF/, '')
  let value: unknown
  let truncated = false
  try {
    value = JSON.parse(text)
  } catch {
    value = text.trim() === '' ? undefined : salvageJson(text)
    if (value === undefined) {
      return { ok: false, damage: { kind: text.trim() === '' ? 'truncated' : 'not-json', reset: [] } }
    }
    truncated = true
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, damage: { kind: 'wrong-type', reset: [describeType(value)] } }
  }
  return { ok: true, value: value as Record<string, unknown>, truncated }
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

export function describeDamage(
  damage: Damage,
  file: string,
  aside: string | null,
  recovered: string
): string {
  const kept = aside ? ` The original was kept as ${aside}.` : ''
  switch (damage.kind) {
    case 'not-json':
      return `${file} was not valid JSON and nothing in it could be read; default settings are in use.${kept}`
    case 'truncated':
      return `${file} was cut short; ${recovered}.${kept}`
    case 'wrong-type':
      return `${file} held ${damage.reset[0] ?? 'something else'} instead of settings; default settings are in use.${kept}`
    case 'invalid':
      return `Some entries of ${file} were invalid and were dropped or reset to defaults (${damage.reset.join(', ')}); ${recovered}.${kept}`
    case 'newer-version':
      return `${file} was written by a newer Agent Tray (file version ${damage.version}); this version ${recovered} from it, and its other settings are at their defaults.${kept}`
  }
}
