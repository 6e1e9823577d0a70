// A target's secret part in the key store (its URL, and the webhook's signing secret), in the
// store's forwarding entries, apart from the API keys (core/secrets/types.ts): config.json keeps the rest.
import { forwardSecretAccount } from '../../shared/forward-target'
import { signingSecretProblem } from './sign'
import { type ParsedTarget, parseTarget, targetSecrets } from './target-url'

export interface TargetSecretStore {
  get(account: string): Promise<string | null>
  set(account: string, value: string): Promise<void>
  delete(account: string): Promise<boolean>
}

export interface StoredTargetSecret {
  url: string
  secret?: string
}

export async function saveTargetSecret(
  store: TargetSecretStore,
  targetId: string,
  value: StoredTargetSecret
): Promise<void> {
  await store.set(forwardSecretAccount(targetId), JSON.stringify(value))
}

/** The target's URL recognised again, its signing secret, and every secret to redact; null when absent or unreadable. */
export async function loadTargetSecret(
  store: TargetSecretStore,
  targetId: string
): Promise<{ target: ParsedTarget; secret?: string; secrets: string[] } | null> {
  const raw = await store.get(forwardSecretAccount(targetId))
  if (raw === null) return null
  let value: StoredTargetSecret
  try {
    value = JSON.parse(raw) as StoredTargetSecret
  } catch {
    return null
  }
  if (typeof value.url !== 'string') return null
  const check = parseTarget(value.url)
  if (!check.ok) return null
  const secrets = [
    ...targetSecrets(value.url, check.target),
    ...(typeof value.secret === 'string' ? [value.secret] : [])
  ]
  return typeof value.secret === 'string'
    ? { target: check.target, secret: value.secret, secrets }
    : { target: check.target, secrets }
}

/** Every secret a stored entry holds (the URL's token-bearing parts, the signing secret), for redaction; none when unreadable. */
export function storedTargetSecrets(raw: string): string[] {
  try {
    const value = JSON.parse(raw) as Partial<StoredTargetSecret>
    if (typeof value.url !== 'string') return []
    return [...targetSecrets(value.url), ...(typeof value.secret === 'string' ? [value.secret] : [])]
  } catch {
    return []
  }
}

export const deleteTargetSecret = (store: TargetSecretStore, targetId: string): Promise<boolean> =>
  store.delete(forwardSecretAccount(targetId))

export type SecretRotation = { ok: true } | { ok: false; problem: string }

function storedUrl(raw: string | null): string | null {
  try {
    const value = JSON.parse(raw ?? 'null') as Partial<StoredTargetSecret> | null
    return typeof value?.url === 'string' ? value.url : null
  } catch {
    return null
  }
}

/** The target keeps its id, so what the outbox holds for it stays; the next send signs with the new secret. */
export async function replaceSigningSecret(
  store: TargetSecretStore,
  targetId: string,
  secret: string
): Promise<SecretRotation> {
  const url = storedUrl(await store.get(forwardSecretAccount(targetId)))
  const check = url === null ? null : parseTarget(url)
  if (url === null || check === null || !check.ok)
    return { ok: false, problem: 'Its URL is not in the key store: remove the target and add it again.' }
  if (check.target.kind !== 'webhook') return { ok: false, problem: 'A signing secret is for a JSON webhook only.' }
  const problem = signingSecretProblem(secret)
  if (problem !== null) return { ok: false, problem }
  await saveTargetSecret(store, targetId, { url, secret: secret.trim() })
  return { ok: true }
}
