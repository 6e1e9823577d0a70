// `agent-tray login` and `logout` as functions: the command parses arguments and prints; this
// decides. The key is checked against the service before it is stored, and a rejected key is
// never stored. No message here can contain the key.
import { randomUUID } from 'node:crypto'
import type { Connection, SecretBackend } from '../../shared/settings'
import { addConnection, findConnectionByUrl, normalizeBaseUrl } from '../settings/edit'
import type { SettingsStore } from '../settings/store'
import { firstLine, redact, type SecretStore } from './types'

/** Asks the service whether a key works (e.g. by listing a project or any cheap authed call). */
export type KeyCheck = (baseUrl: string, apiKey: string) => Promise<KeyCheckResult>
export type KeyCheckResult =
  | { ok: true }
  /** rejected: the service said 401/403; unreachable: no answer, or an answer that says nothing. */
  | { ok: false; reason: 'rejected' | 'unreachable'; message: string }

export type LoginErrorKind = 'no-connection' | 'no-key' | 'rejected' | 'unreachable'

export class LoginError extends Error {
  override name = 'LoginError'
  constructor(
    readonly kind: LoginErrorKind,
    message: string
  ) {
    super(message)
  }
}

export interface LoginOptions {
  settings: SettingsStore
  secrets: SecretStore
  /** e.g. () => readSecretFromTerminal(); called only once the connection is known. */
  readKey: () => Promise<string>
  checkKey: KeyCheck
  /** The service to log in to; defaults to the active connection. */
  baseUrl?: string
  /** A name for a new connection; defaults to the URL's host. */
  name?: string
  newId?: () => string
}

export interface LoginResult {
  connection: Connection
  /** A connection was added for a base URL not seen before. */
  created: boolean
  backend: SecretBackend
  detail: string
}

export async function login(options: LoginOptions): Promise<LoginResult> {
  const current = options.settings.read()
  let baseUrl: string
  let existing: Connection | undefined
  if (options.baseUrl !== undefined) {
    try {
      baseUrl = normalizeBaseUrl(options.baseUrl)
    } catch (error) {
      throw new LoginError('no-connection', firstLine(error))
    }
    existing = findConnectionByUrl(current, baseUrl)
  } else {
    existing = current.connections.find((c) => c.id === current.activeConnectionId)
    if (!existing) throw new LoginError('no-connection', 'No service yet: give its address with --base-url URL.')
    baseUrl = existing.baseUrl
  }

  const apiKey = (await options.readKey()).trim()
  if (!apiKey) throw new LoginError('no-key', 'No API key was given; nothing was stored.')

  let checked: KeyCheckResult
  try {
    checked = await options.checkKey(baseUrl, apiKey)
  } catch (error) {
    checked = { ok: false, reason: 'unreachable', message: firstLine(error, apiKey) }
  }
  if (!checked.ok) {
    const why = redact(checked.message, apiKey)
    throw checked.reason === 'rejected'
      ? new LoginError('rejected', `${baseUrl} rejected this API key (${why}); it was not stored.`)
      : new LoginError('unreachable', `Could not check the API key with ${baseUrl} (${why}); it was not stored.`)
  }

  const id = existing?.id ?? (options.newId ?? randomUUID)()
  await options.secrets.set(id, apiKey)
  let connection = existing
  const saved = await options.settings.update((draft) => {
    connection =
      draft.connections.find((c) => c.id === id) ??
      addConnection(draft, { baseUrl, ...(options.name ? { name: options.name } : {}) }, id)
    draft.activeConnectionId = id
  })
  connection = saved.connections.find((c) => c.id === id) ?? connection
  return { connection: connection!, created: !existing, backend: options.secrets.backend, detail: options.secrets.detail }
}

export interface LogoutOptions {
  settings: SettingsStore
  secrets: SecretStore
  /** Defaults to the active connection. The connection and its watched projects stay. */
  connectionId?: string
}

export async function logout(options: LogoutOptions): Promise<{ connection: Connection; removed: boolean }> {
  const settings = options.settings.read()
  const id = options.connectionId ?? settings.activeConnectionId
  const connection = settings.connections.find((c) => c.id === id || c.name === id)
  if (!connection) throw new LoginError('no-connection', id ? `No connection ${id}.` : 'No service to log out of.')
  return { connection, removed: await options.secrets.delete(connection.id) }
}
