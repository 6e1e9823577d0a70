// A watched project: how a new entry is made, and what it is called on screen, in the tray and
// in notifications. One place each, so every surface names a project the same way.
import type { WatchedProject } from './settings'

export function newWatchedProject(
  projectId: string,
  addedAt: Date,
  options: { name?: string; muted?: boolean; softwareProductId?: string } = {}
): WatchedProject {
  const entry: WatchedProject = {
    projectId,
    name: options.name ?? '',
    muted: options.muted ?? false,
    addedAt: addedAt.toISOString()
  }
  if (options.softwareProductId) entry.softwareProductId = options.softwareProductId
  return entry
}

/** The service's name once fetched, else the name remembered when it was watched, else its id. */
export function projectDisplayName(
  watched: Pick<WatchedProject, 'projectId' | 'name'>,
  project?: { name: string } | null
): string {
  return project?.name || watched.name || watched.projectId
}
