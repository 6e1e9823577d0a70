// Settings file versions and how each moves to the next: on plain JSON (the file as read), in
// order, leaving validation to the current schema. Nothing of an older version is dropped.
import { defaultConnectionName, parseBaseUrl } from '../../shared/base-url'
import { DEFAULT_WARN_RATIO } from '../../shared/budgets'
import { isJsonObject } from '../../shared/json-object'
import { newWatchedProject } from '../../shared/watched-project'
import { defaultSettings, SETTINGS_VERSION } from './schema'

export type JsonObject = Record<string, unknown>

export const MIGRATED_CONNECTION_ID = 'default'

/** v1 kept one service (apiBaseUrl, publishingDomain) and a flat watchedProjects list; it becomes the
 *  connection "default" (fixed, so two processes migrating the same file agree), its projects watched there. */
export function migrateV1toV2(v1: JsonObject, now: Date): JsonObject {
  const { apiBaseUrl, publishingDomain, watchedProjects, pollIntervalMs, notifyOnComplete, notifyOnFailure, ...rest } =
    v1
  const ids = Array.isArray(watchedProjects)
    ? watchedProjects.filter((id): id is string => typeof id === 'string' && id.trim() !== '')
    : []
  const id = MIGRATED_CONNECTION_ID
  const given = typeof apiBaseUrl === 'string' ? apiBaseUrl : ''
  const hasService = given !== ''
  const domain = typeof publishingDomain === 'string' ? publishingDomain : ''
  // Stored as every connection is (shared/base-url.ts); one the rule refuses is left to the schema, which says so.
  const parsed = parseBaseUrl(given)
  const baseUrl = parsed.ok ? parsed.baseUrl : given
  const defaults = defaultSettings()
  const transitions = { ...defaults.notifications.transitions }
  if (typeof notifyOnComplete === 'boolean') transitions.completed = notifyOnComplete
  if (typeof notifyOnFailure === 'boolean') transitions.failed = notifyOnFailure
  return {
    ...defaults,
    ...rest,
    version: 2,
    activeConnectionId: hasService ? id : null,
    connections: hasService ? [{ id, name: defaultConnectionName(baseUrl), baseUrl, publishingDomain: domain }] : [],
    watched: ids.length ? { [id]: ids.map((projectId) => newWatchedProject(projectId.trim(), now)) } : {},
    polling: {
      ...defaults.polling,
      activeIntervalMs: typeof pollIntervalMs === 'number' ? pollIntervalMs : defaults.polling.activeIntervalMs
    },
    notifications: { ...defaults.notifications, transitions }
  }
}

/** v3 keeps budgets per connection: a v2 project's budgetUsd becomes its total budget ("total-<project id>"). */
export function migrateV2toV3(v2: JsonObject): JsonObject {
  return { ...liftProjectBudgets(v2), version: 3 }
}

/** Moves projects' `budgetUsd` into their connection's budgets; also run on a current file of unsure version. */
function liftProjectBudgets(v2: JsonObject): JsonObject {
  const watched = isJsonObject(v2.watched) ? v2.watched : {}
  // Budgets already there are kept (a file taken as current may have both).
  const budgets: Record<string, unknown[]> = {}
  if (isJsonObject(v2.budgets))
    for (const [id, list] of Object.entries(v2.budgets)) if (Array.isArray(list)) budgets[id] = [...list]
  const nextWatched: JsonObject = {}
  let lifted = false
  for (const [connectionId, list] of Object.entries(watched)) {
    if (!Array.isArray(list)) {
      nextWatched[connectionId] = list
      continue
    }
    nextWatched[connectionId] = list.map((entry: unknown) => {
      if (!isJsonObject(entry)) return entry
      if (!Object.hasOwn(entry, 'budgetUsd')) return entry
      lifted = true
      const { budgetUsd, ...rest } = entry
      // An amount the schema refuses is left to it: the whole budget then counts as damage, told.
      if (typeof rest.projectId === 'string' && budgetUsd !== null && budgetUsd !== undefined) {
        ;(budgets[connectionId] ??= []).push({
          id: `total-${rest.projectId}`,
          projectId: rest.projectId,
          period: 'total',
          limitUsd: budgetUsd,
          warnRatio: DEFAULT_WARN_RATIO
        })
      }
      return rest
    })
  }
  return lifted ? { ...v2, watched: nextWatched, budgets } : v2
}

const MIGRATIONS: Record<number, (doc: JsonObject, now: Date) => JsonObject> = {
  1: migrateV1toV2,
  2: migrateV2toV3
}

// Without a usable version number the keys decide (v1's keys make it v1, else current): a "version 1" with
// only later keys is a damaged later file, and migrating it as v1 would drop its connections.
export function versionOf(doc: JsonObject): number {
  const has = (key: string) => Object.hasOwn(doc, key)
  const v1Keys = has('watchedProjects') || has('apiBaseUrl')
  const { version } = doc
  if (typeof version === 'number' && Number.isInteger(version) && version >= 1) {
    return version === 1 && !v1Keys && (has('connections') || has('watched')) ? SETTINGS_VERSION : version
  }
  return v1Keys ? 1 : SETTINGS_VERSION
}

/** Brings `doc` up to the current version; a version newer than ours is the caller's concern. */
export function migrate(doc: JsonObject, now: Date): { doc: JsonObject; from: number } {
  const from = versionOf(doc)
  let version = Math.max(1, from)
  let current = doc
  while (version < SETTINGS_VERSION) {
    // Every version below ours has its step: migrate.test.ts takes a v1 file to the current one.
    current = MIGRATIONS[version]!(current, now)
    version += 1
  }
  // Taken as current without saying so (or damaged): a v2 project's budget must not be lost.
  if (from === SETTINGS_VERSION && isJsonObject(current.watched)) current = liftProjectBudgets(current)
  return { doc: current, from }
}
