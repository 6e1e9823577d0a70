// From the bytes of config.json to valid settings: parse, migrate, validate, and when any of it
// fails, recover what can be recovered (see schema.ts) and say what was lost.
import { z } from 'zod'
import type { Settings } from '../../shared/settings'
import { type Damage, issuePaths, readJsonObject } from './damage'
import { migrate } from './migrate'
import {
  defaultSettings,
  lenientRecord,
  lenientSettingsSchema,
  safeStorageKeysSchema,
  SETTINGS_VERSION,
  settingsSchemaAt
} from './schema'

/** config.json as stored: the settings, plus safeStorage ciphertexts kept out of `Settings`. */
export interface ConfigDocument {
  settings: Settings
  safeStorageKeys: Record<string, string>
  /** Forwarding targets' secrets, apart from the API keys (core/secrets/types.ts ForwardingSecretStore). */
  forwardingSafeStorageKeys: Record<string, string>
}

export interface Interpreted<T> {
  doc: T
  /** The file must be written back (it was older, damaged, or newer than us). */
  rewrite: boolean
  damage: Damage | null
}

const SAFE_STORAGE_KEYS = 'safeStorageKeys'
const FORWARDING_SAFE_STORAGE_KEYS = 'forwardingSafeStorageKeys'

export function freshConfig(): ConfigDocument {
  return { settings: defaultSettings(), safeStorageKeys: {}, forwardingSafeStorageKeys: {} }
}

export function serializeConfig(doc: ConfigDocument): Record<string, unknown> {
  // The forwarding map only once it holds something: a file without targets stays as it was.
  const forwarding =
    Object.keys(doc.forwardingSafeStorageKeys).length > 0
      ? { [FORWARDING_SAFE_STORAGE_KEYS]: doc.forwardingSafeStorageKeys }
      : {}
  return { ...doc.settings, [SAFE_STORAGE_KEYS]: doc.safeStorageKeys, ...forwarding }
}

/** A map of ciphertexts as read: whole, or the entries that are strings (and whether it was whole). */
function ciphertextMap(raw: unknown): { ok: boolean; map: Record<string, string> } {
  const parsed = safeStorageKeysSchema.safeParse(raw ?? {})
  return parsed.success ? { ok: true, map: parsed.data } : { ok: false, map: lenientRecord(z.string()).parse(raw) }
}

export function interpretConfig(raw: Buffer | null, now: Date): Interpreted<ConfigDocument> {
  if (raw === null) return { doc: freshConfig(), rewrite: false, damage: null }
  const read = readJsonObject(raw)
  if (!read.ok) return { doc: freshConfig(), rewrite: true, damage: read.damage }

  const { [SAFE_STORAGE_KEYS]: rawKeys, [FORWARDING_SAFE_STORAGE_KEYS]: rawForwarding, ...rest } = read.value
  const keys = ciphertextMap(rawKeys)
  const forwarding = ciphertextMap(rawForwarding)
  const safeStorageKeys = keys.map
  const forwardingSafeStorageKeys = forwarding.map

  const migrated = migrate(rest, now)
  if (migrated.from > SETTINGS_VERSION) {
    // Its other settings may mean something else by now; the connections, watched projects and
    // budgets are what the user would lose, and they are read the same way as from a damaged file.
    const salvaged = lenientSettingsSchema(now).parse(migrated.doc)
    const settings: Settings = {
      ...defaultSettings(),
      activeConnectionId: salvaged.activeConnectionId,
      connections: salvaged.connections,
      watched: salvaged.watched,
      budgets: salvaged.budgets
    }
    return {
      doc: { settings, safeStorageKeys, forwardingSafeStorageKeys },
      rewrite: true,
      damage: { kind: 'newer-version', reset: [], version: migrated.from }
    }
  }

  const strict = settingsSchemaAt(now).safeParse(migrated.doc)
  if (strict.success && keys.ok && forwarding.ok) {
    const damage: Damage | null = read.damage ? { kind: read.damage, reset: [] } : null
    return {
      doc: { settings: strict.data, safeStorageKeys, forwardingSafeStorageKeys },
      rewrite: damage !== null || migrated.from < SETTINGS_VERSION,
      damage
    }
  }
  const reset = [
    ...(strict.success ? [] : issuePaths(strict.error.issues)),
    ...(keys.ok ? [] : [SAFE_STORAGE_KEYS]),
    ...(forwarding.ok ? [] : [FORWARDING_SAFE_STORAGE_KEYS])
  ]
  return {
    doc: { settings: lenientSettingsSchema(now).parse(migrated.doc), safeStorageKeys, forwardingSafeStorageKeys },
    rewrite: true,
    damage: { kind: read.damage ?? 'invalid', reset }
  }
}

export function describeRecovered(settings: Settings): string {
  const projects = Object.values(settings.watched).reduce((sum, list) => sum + list.length, 0)
  const connections = settings.connections.length
  return `recovered ${projects} watched project${projects === 1 ? '' : 's'} and ${connections} connection${connections === 1 ? '' : 's'}`
}

/**
 * A damaged config.json as kept aside: its key ciphertexts blanked ("[removed]"), so the copy holds
 * nothing of a key (basic_text ciphertexts are as good as plain text). Works on text cut anywhere:
 * the ciphertexts are base64, so no '}' or '"' inside them ends the search early.
 */
export function withoutCiphertexts(raw: Buffer): Buffer {
  // latin1: byte for byte, so the rest of a damaged file (invalid UTF-8 too) is kept exactly.
  const text = raw.toString('latin1')
  const scrubbed = text.replace(
    new RegExp(`("(?:${SAFE_STORAGE_KEYS}|${FORWARDING_SAFE_STORAGE_KEYS})"\\s*:\\s*\\{)([^}]*)`, 'g'),
    (_, open: string, inner: string) => open + inner.replace(/("(?:[^"\\]|\\.)*"\s*:\s*)"[^"]*"?/g, '$1"[removed]"')
  )
  return scrubbed === text ? raw : Buffer.from(scrubbed, 'latin1')
}
