// From config.json as read to valid settings: migrate, validate, and where a value is wrong, the
// forgiving schema's defaults (schema.ts), with the paths that were wrong for the notice.
import { z } from 'zod'
import type { Settings } from '../../shared/settings'
import type { Finding, Interpreted } from './document-file'
import { type JsonObject, migrate } from './migrate'
import { defaultSettings, forgiving, issuePaths, SETTINGS_VERSION, settingsSchemaAt } from './schema'

/** config.json as stored: the settings, plus safeStorage ciphertexts kept out of `Settings`. */
export interface ConfigDocument {
  settings: Settings
  safeStorageKeys: Record<string, string>
  /** Forwarding targets' secrets, apart from the API keys (core/secrets/types.ts ForwardingSecretStore). */
  forwardingSafeStorageKeys: Record<string, string>
}

const SAFE_STORAGE_KEYS = 'safeStorageKeys'
const FORWARDING_SAFE_STORAGE_KEYS = 'forwardingSafeStorageKeys'
/** Ciphertexts of keys under Electron's safeStorage, by id (base64); one that is not text is dropped. */
const ciphertextMap = forgiving.map(z.string())
const strictMap = z.record(z.string(), z.string())

export function serializeConfig(doc: ConfigDocument): JsonObject {
  const out: JsonObject = { ...doc.settings, [SAFE_STORAGE_KEYS]: doc.safeStorageKeys }
  // The forwarding map only once it holds something: a file without targets stays as it was.
  if (Object.keys(doc.forwardingSafeStorageKeys).length > 0)
    out[FORWARDING_SAFE_STORAGE_KEYS] = doc.forwardingSafeStorageKeys
  return out
}

export function interpretConfig(value: JsonObject, now: Date): Interpreted<ConfigDocument> {
  const { [SAFE_STORAGE_KEYS]: keys = {}, [FORWARDING_SAFE_STORAGE_KEYS]: forwarding = {}, ...rest } = value
  const safeStorageKeys = ciphertextMap.parse(keys)
  const forwardingSafeStorageKeys = ciphertextMap.parse(forwarding)
  const migrated = migrate(rest, now)
  const settings = settingsSchemaAt(now, true).parse(migrated.doc)
  if (migrated.from > SETTINGS_VERSION) {
    // Its other settings may mean something else by now; the connections, watched projects and
    // budgets are what the user would lose.
    const { activeConnectionId, connections, watched, budgets } = settings
    const kept = { ...defaultSettings(), activeConnectionId, connections, watched, budgets }
    return {
      doc: { settings: kept, safeStorageKeys, forwardingSafeStorageKeys },
      rewrite: true,
      finding: { kind: 'newer-version', version: migrated.from }
    }
  }
  const strict = settingsSchemaAt(now).safeParse(migrated.doc)
  const wrong = [
    ...(strict.success ? [] : issuePaths(strict.error.issues)),
    ...(strictMap.safeParse(keys).success ? [] : [SAFE_STORAGE_KEYS]),
    ...(strictMap.safeParse(forwarding).success ? [] : [FORWARDING_SAFE_STORAGE_KEYS])
  ]
  return {
    doc: { settings, safeStorageKeys, forwardingSafeStorageKeys },
    rewrite: wrong.length > 0 || migrated.from < SETTINGS_VERSION,
    finding: wrong.length > 0 ? { kind: 'invalid', wrong } : undefined
  }
}

export function describeRecovered(settings: Settings): string {
  const projects = Object.values(settings.watched).reduce((sum, list) => sum + list.length, 0)
  const connections = settings.connections.length
  return `recovered ${projects} watched project${projects === 1 ? '' : 's'} and ${connections} connection${connections === 1 ? '' : 's'}`
}

/** The one notice for a config.json kept aside: what was wrong, what is in use now, where the original is. */
export function describeConfigFinding(finding: Finding, file: string, aside: string, doc: ConfigDocument): string {
  const kept = ` The original was kept as ${aside}.`
  switch (finding.kind) {
    case 'not-json': {
      const inUse = finding.lastGood
        ? `the settings as last saved, from ${finding.lastGood}, are in use`
        : 'default settings are in use'
      const why = finding.why.startsWith('held') ? `${finding.why} instead of settings` : finding.why
      return `${file} ${why}; ${inUse}.${kept}`
    }
    case 'invalid':
      return `Some entries of ${file} were invalid and were dropped or reset to defaults (${finding.wrong.join(', ')}); ${describeRecovered(doc.settings)}.${kept}`
    case 'newer-version':
      return `${file} was written by a newer Agent Tray (file version ${finding.version}); this version ${describeRecovered(doc.settings)} from it, and its other settings are at their defaults.${kept}`
  }
}

/** A damaged config.json as kept aside, its key ciphertexts "[removed]" (basic_text ones are as good as plain
 *  text). Works on text cut anywhere: base64 holds no '}' or '"' to end the search early. */
export function withoutCiphertexts(raw: Buffer): Buffer {
  // latin1: byte for byte, so the rest of a damaged file (invalid UTF-8 too) is kept exactly.
  const text = raw.toString('latin1')
  const scrubbed = text.replace(
    new RegExp(`("(?:${SAFE_STORAGE_KEYS}|${FORWARDING_SAFE_STORAGE_KEYS})"\\s*:\\s*\\{)([^}]*)`, 'g'),
    (_, open: string, inner: string) => open + inner.replace(/("(?:[^"\\]|\\.)*"\s*:\s*)"[^"]*"?/g, '$1"[removed]"')
  )
  return scrubbed === text ? raw : Buffer.from(scrubbed, 'latin1')
}
