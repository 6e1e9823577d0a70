// A new target from the window or `forward add`: name unique and plain, at most MAX_TARGETS, a signing secret for a
// JSON webhook only (made when none is given, shown once). Problems never repeat the URL, which holds the token.
import { randomBytes } from 'node:crypto'
import { hasUnsafeCharacters } from '../../shared/controls'
import {
  DEFAULT_FORWARD_EVENTS,
  type ForwardTarget,
  type ForwardTargetInput,
  MAX_TARGET_NAME,
  MAX_TARGETS
} from '../../shared/forward-target'
import { signingSecretProblem } from './sign'
import type { StoredTargetSecret } from './target-secrets'
import { defaultTargetName, parseTarget, shownHost } from './target-url'

export type TargetPlan =
  | {
      ok: true
      target: ForwardTarget
      stored: StoredTargetSecret
      /** Made here (none was given): shown to the user once. */ generatedSecret?: string
    }
  | { ok: false; field: 'url' | 'name' | 'secret' | 'targets'; problem: string }

/** 32 random bytes: a webhook signed by default, with a secret nobody has to think up. */
export function generateSigningSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function planTarget(existing: readonly ForwardTarget[], input: ForwardTargetInput, id: string): TargetPlan {
  const url = input.url.trim()
  const check = parseTarget(url)
  if (!check.ok) return { ok: false, field: 'url', problem: check.problem }
  if (input.secret !== undefined && check.target.kind !== 'webhook')
    return { ok: false, field: 'secret', problem: 'A signing secret is for a JSON webhook only.' }
  const secretProblem = input.secret === undefined ? null : signingSecretProblem(input.secret)
  if (secretProblem !== null) return { ok: false, field: 'secret', problem: secretProblem }
  const host = shownHost(check.target)
  const name = (input.name ?? defaultTargetName({ kind: check.target.kind, host })).trim()
  if (name === '' || name.length > MAX_TARGET_NAME || hasUnsafeCharacters(name)) {
    return {
      ok: false,
      field: 'name',
      problem: `A target's name is 1 to ${MAX_TARGET_NAME} characters, without control characters.`
    }
  }
  if (existing.some((t) => t.name === name))
    return { ok: false, field: 'name', problem: `A target is already named '${name}': give it another name.` }
  if (existing.length >= MAX_TARGETS) return { ok: false, field: 'targets', problem: `At most ${MAX_TARGETS} targets.` }
  const target: ForwardTarget = {
    id,
    name,
    kind: check.target.kind,
    host,
    on: input.on && input.on.length > 0 ? [...new Set(input.on)] : [...DEFAULT_FORWARD_EVENTS],
    when: input.when ?? 'away',
    paused: false,
    quietHours: input.quietHours ?? false
  }
  if (input.secret !== undefined) return { ok: true, target, stored: { url, secret: input.secret.trim() } }
  if (target.kind !== 'webhook') return { ok: true, target, stored: { url } }
  const generatedSecret = generateSigningSecret()
  return { ok: true, target, stored: { url, secret: generatedSecret }, generatedSecret }
}
