// Hash routes of the window. Parsing never throws: a hash we do not know is its own route.

export type Route =
  | { name: 'now' }
  | { name: 'projects' }
  | { name: 'project'; projectId: string }
  | { name: 'task'; projectId: string; taskId: string }
  /** A task of an account of another service (no projects: every task of the account is watched). */
  | { name: 'agent-task'; connectionId: string; taskId: string }
  | { name: 'costs' }
  | { name: 'settings'; account?: string }
  | { name: 'setup' }
  | { name: 'unknown'; hash: string }

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+|\/+$/g, '')
  if (path === '' || path === 'now') return { name: 'now' }
  if (path === 'projects') return { name: 'projects' }
  const parts = path.split('/')
  const decoded = parts.map(decode)
  if (decoded.some((p) => p === null || p === '')) return { name: 'unknown', hash }
  const [first, id, third, taskId] = decoded as string[]
  if (parts.length === 1) {
    if (first === 'costs' || first === 'settings' || first === 'setup') return { name: first }
  }
  if (first === 'settings' && id === 'accounts' && parts.length === 3 && third !== undefined)
    return { name: 'settings', account: third }
  if (first === 'accounts' && id !== undefined && parts.length === 4 && third === 'tasks' && taskId !== undefined)
    return { name: 'agent-task', connectionId: id, taskId }
  if (first === 'projects' && id !== undefined) {
    if (parts.length === 2) return { name: 'project', projectId: id }
    if (parts.length === 4 && third === 'tasks' && taskId !== undefined) {
      return { name: 'task', projectId: id, taskId }
    }
  }
  return { name: 'unknown', hash }
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'now':
    case 'projects':
    case 'costs':
    case 'setup':
      return `#/${route.name}`
    case 'settings':
      return route.account === undefined ? '#/settings' : `#/settings/accounts/${encodeURIComponent(route.account)}`
    case 'project':
      return `#/projects/${encodeURIComponent(route.projectId)}`
    case 'task':
      return `#/projects/${encodeURIComponent(route.projectId)}/tasks/${encodeURIComponent(route.taskId)}`
    case 'agent-task':
      return `#/accounts/${encodeURIComponent(route.connectionId)}/tasks/${encodeURIComponent(route.taskId)}`
    case 'unknown':
      return route.hash
  }
}

/** The top-level section a route belongs to, for the navigation's `aria-current`. */
export function sectionOf(route: Route): 'now' | 'projects' | 'costs' | 'settings' | 'setup' | null {
  switch (route.name) {
    case 'now':
    case 'agent-task':
      return 'now'
    case 'projects':
    case 'project':
    case 'task':
      return 'projects'
    case 'costs':
    case 'settings':
    case 'setup':
      return route.name
    case 'unknown':
      return null
  }
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null
  }
}
