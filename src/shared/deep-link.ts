// Strict on purpose: any program on the machine can send a link, so anything but our two forms, with ids by the one
// id rule, is refused.
import { idProblem } from './ids'

export const DEEP_LINK_SCHEME = 'agent-tray'
/** Longer than any link of ours can be (two ids at their bound); longer input is refused unread. */
const MAX_LINK_LENGTH = 512

export type DeepLink =
  { kind: 'projects' } | { kind: 'project'; projectId: string } | { kind: 'task'; projectId: string; taskId: string }

export type DeepLinkParse = { ok: true; link: DeepLink } | { ok: false; problem: string }

/** The link to the projects, a project or one of its tasks; ids must pass the id rule (it leaves nothing to escape). */
export function deepLinkUrl(projectId?: string, taskId?: string): string {
  if (projectId === undefined) return `${DEEP_LINK_SCHEME}://projects`
  for (const id of taskId === undefined ? [projectId] : [projectId, taskId]) {
    const problem = idProblem(id)
    if (problem !== null) throw new Error(`An id in a link ${problem}.`)
  }
  const project = `${DEEP_LINK_SCHEME}://projects/${projectId}`
  return taskId === undefined ? project : `${project}/tasks/${taskId}`
}

/** Reads one of our links; any port, user info, query, fragment, percent-escape or extra segment is refused. */
export function parseDeepLink(text: string): DeepLinkParse {
  const fail = (problem: string): DeepLinkParse => ({ ok: false, problem })
  if (text.length > MAX_LINK_LENGTH) return fail('is too long to be a link of ours')
  const prefix = `${DEEP_LINK_SCHEME}://`
  // Compared before any URL parser sees it: parsers differ on non-special schemes.
  if (text.slice(0, prefix.length).toLowerCase() !== prefix) return fail(`is not an ${prefix} link`)
  const rest = text.slice(prefix.length)
  if (/[?#%@\\]/.test(rest)) return fail('may not carry a query, fragment, escapes or user info')
  // A trailing slash is what some launchers add; one is allowed.
  const parts = (rest.endsWith('/') ? rest.slice(0, -1) : rest).split('/')
  // Stryker disable next-line OptionalChaining: equivalent, split gives at least one part
  if (parts[0]?.toLowerCase() !== 'projects') return fail('names no project (agent-tray://projects/ID)')
  if (parts.length === 1) return { ok: true, link: { kind: 'projects' } }
  // Stryker disable next-line StringLiteral: equivalent, there are two parts or more here
  const projectId = parts[1] ?? ''
  const projectProblem = idProblem(projectId)
  if (projectProblem !== null) return fail(`has a project id that ${projectProblem}`)
  if (parts.length === 2) return { ok: true, link: { kind: 'project', projectId } }
  if (parts.length !== 4 || parts[2] !== 'tasks')
    return fail('is neither agent-tray://projects/ID nor agent-tray://projects/ID/tasks/ID')
  // Stryker disable next-line StringLiteral: equivalent, there are four parts here
  const taskId = parts[3] ?? ''
  const taskProblem = idProblem(taskId)
  if (taskProblem !== null) return fail(`has a task id that ${taskProblem}`)
  return { ok: true, link: { kind: 'task', projectId, taskId } }
}
