// The real parts behind the commands: the core's service client, settings store and keychain.
import { randomUUID } from 'node:crypto'
import { createServiceClient } from '../core/client'
import { openUsageStore } from '../core/costs/usage-store'
import { settingsDir } from '../core/settings/paths'
import { openSettings } from '../core/settings/store'
import { sleep } from '../core/sleep'
import type { CliDeps, SecretPort } from './deps'
import { openLink } from './open-link'

export interface RealDepsOptions {
  env: Record<string, string | undefined>
  signal?: AbortSignal
  /** Asks for a secret without echo (main.ts wires the terminal). */
  promptHidden(question: string): Promise<string>
  secrets(): SecretPort | Promise<SecretPort>
  isKeychainUnavailable(error: unknown): boolean
}

export function realDeps(o: RealDepsOptions): CliDeps {
  return {
    createClient: (options) => createServiceClient(options),
    settings: () => openSettings({ dir: settingsDir(o.env) }),
    secrets: o.secrets,
    isKeychainUnavailable: o.isKeychainUnavailable,
    promptHidden: o.promptHidden,
    sleep,
    random: Math.random,
    now: () => new Date(),
    tz: (at) => -at.getTimezoneOffset(),
    // A damaged cache is rebuilt and says so only with --debug: it is a cache, nothing to act on.
    openUsages: () => openUsageStore({ dir: settingsDir(o.env) }),
    newId: () => randomUUID(),
    openLink: (url) => openLink(url, { platform: process.platform, env: o.env }),
    signal: o.signal
  }
}
