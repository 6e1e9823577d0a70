// What every command starts from: the global options, the connection they point at, and the API
// key (keychain, environment or stdin — never an argument).
import type { InvalidRecordIssue } from '../core/client'
import { keyCustody, KeyNotSentError, type StoredEntry } from '../core/secrets/custody'
import {
  addConnection,
  findConnectionByUrl,
  normalizeBaseUrl as normalizeStoredUrl,
  SettingsEditError,
  updateConnection
} from '../core/settings/edit'
import { connectionAt, keyTransportProblem, sameOrigin } from '../shared/base-url'
import type { Connection } from '../shared/settings'
import { authError, keychainError, usageError } from './cli-error'
import type { CliClient, CliDeps, SecretPort } from './deps'
import { type CliIo, readAll } from './io'
import { requireProjectsAccount } from './services'
import { invalidRecordWarner } from './warnings'

export interface GlobalOptions {
  baseUrl?: string
  apiKeyStdin?: boolean
  json?: boolean
  debug?: boolean
}

export interface Context {
  io: CliIo
  deps: CliDeps
  opts: GlobalOptions
  /** Every secret seen in this run, so the output can be scrubbed of them. */
  secrets: string[]
  /** Records the service sent that could not be read in this run (each warned about once): the run then exits 6. */
  skipped: InvalidRecordIssue[]
  /** The command being run ("project get"), for the words of a refusal. */
  command?: string
}

export const BASE_URL_ENV = 'AGENT_TRAY_BASE_URL'
export const API_KEY_ENV = 'AGENT_TRAY_API_KEY'

/** The base URL as stored ("https://x.test/" → "https://x.test"); a usage error for anything else (credentials in it included). */
export function normalizeBaseUrl(raw: string): string {
  try {
    return normalizeStoredUrl(raw)
  } catch (e) {
    if (e instanceof SettingsEditError) throw usageError(`Bad base URL: ${e.message.replace(/\.$/, '')}.`)
    throw e
  }
}

export interface Resolved {
  connection: Connection
  /** false for a base URL that no stored connection has (nothing was written). */
  stored: boolean
}

/** The base URL asked for by --base-url or AGENT_TRAY_BASE_URL, if any. */
export function requestedBaseUrl(ctx: Context): string | undefined {
  const raw = ctx.opts.baseUrl ?? ctx.io.env[BASE_URL_ENV]
  return raw !== undefined && raw.trim() !== '' ? normalizeBaseUrl(raw) : undefined
}

/** Whether the command was pointed at one connection (a URL, or a key that belongs to one). */
export function connectionNamed(ctx: Context): boolean {
  return (
    ctx.opts.baseUrl !== undefined ||
    !!ctx.io.env[BASE_URL_ENV]?.trim() ||
    !!ctx.opts.apiKeyStdin ||
    !!ctx.io.env[API_KEY_ENV]?.trim()
  )
}

/** --base-url, else AGENT_TRAY_BASE_URL, else the active connection; an unknown base URL is used unstored, since only
 *  `login` and `watch-list add` save one. */
export async function resolveConnection(ctx: Context, fallbackBaseUrl?: string, restore = true): Promise<Resolved> {
  const baseUrl = requestedBaseUrl(ctx) ?? fallbackBaseUrl
  const settings = (await ctx.deps.settings()).read()
  if (baseUrl !== undefined) {
    const found =
      findConnectionByUrl(settings, baseUrl) ?? (restore ? await restoreFromKeychain(ctx, baseUrl) : undefined)
    if (found) return { connection: found, stored: true }
    return { connection: connectionAt(ctx.deps.newId(), baseUrl), stored: false }
  }
  const active =
    settings.connections.find((c) => c.id === settings.activeConnectionId) ??
    (settings.connections.length === 1 ? settings.connections[0] : undefined)
  if (!active) {
    throw usageError(
      `No service is set up: run \`agent-tray login --base-url URL\`, or pass --base-url or set ${BASE_URL_ENV}.`
    )
  }
  // Kept in the file so the user can fix it, but no key goes there meanwhile (src/shared/base-url.ts).
  const problem = keyTransportProblem(active.baseUrl)
  if (problem !== null) {
    throw usageError(
      `The stored connection "${active.name}" cannot be used: ${problem} Log in again with its https address: \`agent-tray login --base-url https://…\`.`
    )
  }
  return { connection: active, stored: true }
}

/** A connection lost with a damaged config.json whose key the keychain still keeps for this origin: stored again. */
async function restoreFromKeychain(ctx: Context, baseUrl: string): Promise<Connection | undefined> {
  let entries: StoredEntry[]
  try {
    entries = await keyCustody(await ctx.deps.secrets()).entries()
  } catch {
    return undefined // No keychain: nothing to restore from; the key is asked for as usual.
  }
  const settings = (await ctx.deps.settings()).read()
  const lost = entries.find(
    (e) => sameOrigin(e.baseUrl, baseUrl) && !settings.connections.some((c) => c.id === e.connectionId)
  )
  if (!lost) return undefined
  const stored = await storeConnection(ctx, connectionAt(lost.connectionId, lost.baseUrl))
  ctx.io.stderr.write(`Restored the connection to ${stored.baseUrl} from the keychain: config.json had lost it.\n`)
  return stored
}

/** Saves a connection that was found by base URL only; returns the stored one (another process may have added it meanwhile). */
export async function storeConnection(
  ctx: Context,
  connection: Connection,
  changes: { name?: string | undefined; publishingDomain?: string | undefined } = {}
): Promise<Connection> {
  const store = await ctx.deps.settings()
  const { name, publishingDomain } = changes
  const after = await store.update((draft) => {
    const existing = findConnectionByUrl(draft, connection.baseUrl)
    if (existing) {
      updateConnection(draft, existing.id, { name, publishingDomain })
      return
    }
    addConnection(
      draft,
      {
        baseUrl: connection.baseUrl,
        name: name ?? connection.name,
        publishingDomain: publishingDomain ?? connection.publishingDomain
      },
      connection.id
    )
  })
  return findConnectionByUrl(after, connection.baseUrl) ?? connection
}

/** Opens the keychain, turning "no keychain here" into its one-line error. */
export const openSecrets = (ctx: Context): Promise<SecretPort> => withKeychain(ctx, async (secrets) => secrets)

/** The keychain's own one-line reason, and what to do instead. */
export function keychainUnavailable(cause: unknown): Error {
  const reason =
    cause instanceof Error && cause.message.trim() !== ''
      ? cause.message.split('\n')[0]!.trim().replace(/\.?$/, '.')
      : 'No keychain is reachable.'
  return keychainError(`${reason} Use ${API_KEY_ENV} or --api-key-stdin instead.`)
}

/** Opens the keychain and runs a call on it, turning "no keychain here" into its one-line error. */
export async function withKeychain<T>(ctx: Context, run: (secrets: SecretPort) => Promise<T>): Promise<T> {
  try {
    return await run(await ctx.deps.secrets())
  } catch (e) {
    if (ctx.deps.isKeychainUnavailable(e)) throw keychainUnavailable(e)
    throw e
  }
}

/** Reads a key from stdin: the first line, trimmed. */
export async function readKeyFromStdin(ctx: Context): Promise<string> {
  const [key] = await readSecrets(ctx, ['API key: '], true)
  if (key === '') throw usageError('No API key on standard input.')
  return key!
}

/** Secrets are never arguments (shell history and the process list keep those): typed without echo or read from
 *  stdin one a line, and remembered so no output shows them; '' is one not given. */
export async function readSecrets(
  ctx: Context,
  prompts: readonly string[],
  fromStdin = !ctx.io.isTTY
): Promise<string[]> {
  const given: string[] = []
  if (fromStdin) {
    const lines = (await readAll(ctx.io.stdin))
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '')
    given.push(...prompts.map((_, i) => lines[i] ?? ''))
  } else {
    for (const prompt of prompts) given.push((await ctx.deps.promptHidden(prompt)).trim())
  }
  for (const secret of given) if (secret !== '') remember(ctx, secret)
  return given
}

export function remember(ctx: Context, key: string): string {
  if (!ctx.secrets.includes(key)) ctx.secrets.push(key)
  return key
}

/** The API key: --api-key-stdin, else AGENT_TRAY_API_KEY, else the keychain entry of the connection. */
export async function resolveApiKey(ctx: Context, resolved: Resolved): Promise<string> {
  if (ctx.opts.apiKeyStdin) return readKeyFromStdin(ctx)
  const fromEnv = ctx.io.env[API_KEY_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') return remember(ctx, fromEnv.trim())
  const { connection } = resolved
  let key: string | null = null
  try {
    key = resolved.stored ? await withKeychain(ctx, (s) => keyCustody(s).get(connection.id, connection.baseUrl)) : null
  } catch (e) {
    if (!(e instanceof KeyNotSentError)) throw e
    throw authError(
      `The connection "${connection.name}" cannot use its key: ${e.message} Run \`agent-tray login --base-url ${connection.baseUrl}\` to give this address its own key.`
    )
  }
  if (key === null || key === '') {
    const login =
      resolved.stored && !ctx.opts.baseUrl && !ctx.io.env[BASE_URL_ENV]
        ? 'agent-tray login'
        : `agent-tray login --base-url ${connection.baseUrl}`
    throw authError(
      `No API key for ${connection.baseUrl}: run \`${login}\`, set ${API_KEY_ENV}, or pipe it with --api-key-stdin.`
    )
  }
  return remember(ctx, key)
}

export interface Connected {
  connection: Connection
  stored: boolean
  client: CliClient
}

/** The connection, its key and a client for it; close the client when done (see withClient). */
export async function connect(ctx: Context): Promise<Connected> {
  const resolved = await resolveConnection(ctx)
  requireProjectsAccount(resolved.connection, ctx.command)
  const apiKey = await resolveApiKey(ctx, resolved)
  const client = ctx.deps.createClient({
    baseUrl: resolved.connection.baseUrl,
    apiKey,
    onInvalidRecord: invalidRecordWarner(ctx.io.stderr, ctx.opts.json === true, ctx.skipped)
  })
  return { ...resolved, client }
}

export async function withClient<T>(ctx: Context, run: (c: Connected) => Promise<T>): Promise<T> {
  const connected = await connect(ctx)
  try {
    return await run(connected)
  } finally {
    await connected.client.close()
  }
}

/** The `--json` form of a command's result: one JSON document, indented for reading. */
export function printJson(ctx: Context, value: unknown): void {
  ctx.io.stdout.write(JSON.stringify(value, null, 2) + '\n')
}
