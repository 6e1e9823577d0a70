// Changes to settings as pure functions on a draft, for the app and the command alike:
// `store.update((draft) => watchProject(draft, ...))`. Each one throws SettingsEditError with a
// message fit for the user when the change makes no sense, before anything is written.
import type { Connection, Settings, WatchedProject } from '../../shared/settings'

export class SettingsEditError extends Error {
  override name = 'SettingsEditError'
}

export interface NewConnection {
  name?: string
  baseUrl: string
  publishingDomain?: string
}

/**
 * Trims the URL and drops trailing slashes so one service is never stored twice. Refuses a user
 * name or password rather than drop it: it is likely a credential, and must not be sent or stored.
 * Messages never repeat a URL that may hold one (credentials, or a key in a query).
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim()
  const url = URL.parse(trimmed)
  if (url && (url.username || url.password)) {
    throw new SettingsEditError(
      'The base URL must not carry a user name or password: put the API key in the keychain (agent-tray login), not in the URL.'
    )
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SettingsEditError(`Not an http(s) URL: ${JSON.stringify(trimmed)}`)
  }
  if (url.search || url.hash) throw new SettingsEditError('The base URL must not have a query (?) or fragment (#).')
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

export function findConnection(settings: Settings, idOrName: string): Connection | undefined {
  return (
    settings.connections.find((c) => c.id === idOrName) ??
    settings.connections.find((c) => c.name === idOrName)
  )
}

export function findConnectionByUrl(settings: Settings, baseUrl: string): Connection | undefined {
  const wanted = normalizeBaseUrl(baseUrl)
  return settings.connections.find((c) => c.baseUrl === wanted)
}

/** Adds a connection (the first one becomes active) and returns it. `id` comes from the caller. */
export function addConnection(draft: Settings, input: NewConnection, id: string): Connection {
  const baseUrl = normalizeBaseUrl(input.baseUrl)
  if (draft.connections.some((c) => c.id === id)) throw new SettingsEditError(`A connection with id ${id} exists`)
  if (draft.connections.some((c) => c.baseUrl === baseUrl)) {
    throw new SettingsEditError(`A connection to ${baseUrl} exists already`)
  }
  const connection: Connection = {
    id,
    name: input.name?.trim() || URL.parse(baseUrl)?.host || baseUrl,
    baseUrl,
    publishingDomain: input.publishingDomain?.trim() ?? ''
  }
  draft.connections.push(connection)
  draft.activeConnectionId ??= id
  return connection
}

export function updateConnection(draft: Settings, id: string, changes: Partial<NewConnection>): Connection {
  const connection = draft.connections.find((c) => c.id === id)
  if (!connection) throw new SettingsEditError(`No connection ${id}`)
  if (changes.baseUrl !== undefined) {
    const baseUrl = normalizeBaseUrl(changes.baseUrl)
    if (draft.connections.some((c) => c.id !== id && c.baseUrl === baseUrl)) {
      throw new SettingsEditError(`A connection to ${baseUrl} exists already`)
    }
    connection.baseUrl = baseUrl
  }
  if (changes.name !== undefined) connection.name = changes.name.trim() || connection.name
  if (changes.publishingDomain !== undefined) connection.publishingDomain = changes.publishingDomain.trim()
  return connection
}

/** Removes a connection and its watched projects; the caller deletes its key. Returns whether it existed. */
export function removeConnection(draft: Settings, id: string): boolean {
  const before = draft.connections.length
  draft.connections = draft.connections.filter((c) => c.id !== id)
  delete draft.watched[id]
  if (draft.activeConnectionId === id) draft.activeConnectionId = draft.connections[0]?.id ?? null
  return draft.connections.length < before
}

export function setActiveConnection(draft: Settings, id: string): void {
  if (!draft.connections.some((c) => c.id === id)) throw new SettingsEditError(`No connection ${id}`)
  draft.activeConnectionId = id
}

export interface WatchOptions {
  name?: string
  muted?: boolean
  budgetUsd?: number | null
}

function checkBudget(budgetUsd: number | null | undefined): void {
  if (budgetUsd === undefined || budgetUsd === null) return
  if (!Number.isFinite(budgetUsd) || budgetUsd < 0) {
    throw new SettingsEditError(`A budget must be a positive number of USD, not ${budgetUsd}`)
  }
}

/** Watches a project (or updates it when already watched); returns the entry. */
export function watchProject(
  draft: Settings,
  connectionId: string,
  projectId: string,
  now: Date,
  options: WatchOptions = {}
): WatchedProject {
  const id = projectId.trim()
  if (!id) throw new SettingsEditError('A project id is required')
  if (!draft.connections.some((c) => c.id === connectionId)) {
    throw new SettingsEditError(`No connection ${connectionId}`)
  }
  checkBudget(options.budgetUsd)
  const list = (draft.watched[connectionId] ??= [])
  const existing = list.find((p) => p.projectId === id)
  if (existing) return setWatchOptions(draft, connectionId, id, options)
  const project: WatchedProject = {
    projectId: id,
    name: options.name ?? '',
    muted: options.muted ?? false,
    budgetUsd: options.budgetUsd ?? null,
    addedAt: now.toISOString()
  }
  list.push(project)
  return project
}

/** Returns whether the project was watched. */
export function unwatchProject(draft: Settings, connectionId: string, projectId: string): boolean {
  const list = draft.watched[connectionId]
  if (!list) return false
  const kept = list.filter((p) => p.projectId !== projectId)
  draft.watched[connectionId] = kept
  return kept.length < list.length
}

export function setWatchOptions(
  draft: Settings,
  connectionId: string,
  projectId: string,
  options: WatchOptions
): WatchedProject {
  const project = draft.watched[connectionId]?.find((p) => p.projectId === projectId)
  if (!project) throw new SettingsEditError(`Project ${projectId} is not watched`)
  checkBudget(options.budgetUsd)
  if (options.name !== undefined) project.name = options.name
  if (options.muted !== undefined) project.muted = options.muted
  if (options.budgetUsd !== undefined) project.budgetUsd = options.budgetUsd
  return project
}
