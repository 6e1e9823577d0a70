// Changes to settings as pure functions on a draft (`store.update((draft) => watchProject(draft, ...))`),
// for the app and the command; one that makes no sense throws SettingsEditError, in the user's words.
import { checkBaseUrl, defaultConnectionName, parseBaseUrl, sameOrigin } from '../../shared/base-url'
import { idProblem } from '../../shared/ids'
import type { Connection, Settings, WatchedProject } from '../../shared/settings'
import { newWatchedProject } from '../../shared/watched-project'

export class SettingsEditError extends Error {
  override name = 'SettingsEditError'
}

export interface NewConnection {
  name?: string
  baseUrl: string
  publishingDomain?: string
  /** A provider's kind; absent for Workser. */
  service?: string
}

/** Normalised (src/shared/base-url.ts), or refused: malformed, or the key in clear text to another machine. */
export function normalizeBaseUrl(input: string): string {
  const checked = checkBaseUrl(input)
  if (!checked.ok) throw new SettingsEditError(checked.problem)
  return checked.baseUrl
}

/** The stored connection for a base URL, matched as stored (trailing slashes aside). */
export function findConnectionByUrl(settings: Settings, baseUrl: string): Connection | undefined {
  const parsed = parseBaseUrl(baseUrl)
  return parsed.ok ? settings.connections.find((c) => c.baseUrl === parsed.baseUrl) : undefined
}

/** Adds a connection (the first one becomes active) and returns it. `id` comes from the caller. */
export function addConnection(draft: Settings, input: NewConnection, id: string): Connection {
  const baseUrl = normalizeBaseUrl(input.baseUrl)
  // Two connections may share a base URL: two accounts (keys) on one service.
  if (draft.connections.some((c) => c.id === id)) throw new SettingsEditError(`A connection with id ${id} exists`)
  const connection: Connection = {
    id,
    name: input.name?.trim() || defaultConnectionName(baseUrl),
    baseUrl,
    publishingDomain: input.publishingDomain?.trim() ?? '',
    ...(input.service === undefined ? {} : { service: input.service })
  }
  draft.connections.push(connection)
  draft.watched[id] ??= []
  draft.activeConnectionId ??= id
  return connection
}

/** A key belongs to the origin it was checked against: another origin is refused unless the key is replaced too. */
export function updateConnection(
  draft: Settings,
  id: string,
  changes: Partial<NewConnection>,
  options: { keyReplaced?: boolean } = {}
): Connection {
  const connection = draft.connections.find((c) => c.id === id)
  if (!connection) throw new SettingsEditError(`No connection ${id}`)
  if (changes.service !== undefined && changes.service !== connection.service)
    throw new SettingsEditError("An account's service cannot change: add an account of the other service instead.")
  if (changes.baseUrl !== undefined) {
    const baseUrl = normalizeBaseUrl(changes.baseUrl)
    if (!sameOrigin(connection.baseUrl, baseUrl) && options.keyReplaced !== true) {
      throw new SettingsEditError(
        'The service address now points to another host: enter the API key again, so it is only ever sent where you gave it.'
      )
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
  delete draft.budgets[id]
  delete draft.attention[id]
  delete draft.connectionNotifications[id]
  delete draft.mutedAgentProjects[id]
  delete draft.unitBudgets[id]
  if (draft.activeConnectionId === id) draft.activeConnectionId = draft.connections[0]?.id ?? null
  return draft.connections.length < before
}

export function requireConnection(draft: Settings, id: string): void {
  if (!draft.connections.some((c) => c.id === id)) throw new SettingsEditError(`No connection ${id}`)
}

export function setActiveConnection(draft: Settings, id: string): void {
  requireConnection(draft, id)
  draft.activeConnectionId = id
}

export interface WatchOptions {
  name?: string
  muted?: boolean
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
  const problem = idProblem(id)
  if (problem !== null) throw new SettingsEditError(`The project id ${problem}.`)
  requireConnection(draft, connectionId)
  const list = (draft.watched[connectionId] ??= [])
  const existing = list.find((p) => p.projectId === id)
  if (existing) return setWatchOptions(draft, connectionId, id, options)
  const project = newWatchedProject(id, now, options)
  list.push(project)
  return project
}

/** Returns whether the project was watched. */
export function unwatchProject(draft: Settings, connectionId: string, projectId: string): boolean {
  const list = draft.watched[connectionId]
  if (!list) return false
  const kept = list.filter((p) => p.projectId !== projectId)
  draft.watched[connectionId] = kept
  // Its budgets go with it; the account's own (projectId null) stay.
  const budgets = draft.budgets[connectionId]
  if (budgets) draft.budgets[connectionId] = budgets.filter((b) => b.projectId !== projectId)
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
  if (options.name !== undefined) project.name = options.name
  if (options.muted !== undefined) project.muted = options.muted
  return project
}
