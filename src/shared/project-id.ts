// "Watch a project" takes whatever the user has at hand; with several UUIDs in the text it prefers one after a
// project-like path segment, and otherwise asks rather than guess.
import { idProblem } from './ids'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const PROJECT_SEGMENTS = new Set(['project', 'projects', 'prebuilt', 'p'])
/** Longer than any link worth pasting: the scan stays cheap whatever is pasted. */
const MAX_TEXT = 4096

export type FoundProjectId =
  { ok: true; projectId: string; from: 'id' | 'link' | 'text' } | { ok: false; problem: string }

export function findProjectId(input: string): FoundProjectId {
  const text = input.trim()
  if (text === '') return { ok: false, problem: 'Enter a project id, or paste the project’s link.' }
  if (text.length > MAX_TEXT)
    return { ok: false, problem: `That is longer than ${MAX_TEXT} characters: paste the project’s id or link only.` }
  if (idProblem(text) === null) return { ok: true, projectId: text, from: 'id' }
  const url = URL.parse(text)
  const from = url !== null && (url.protocol === 'http:' || url.protocol === 'https:') ? 'link' : 'text'
  const ids = [...new Set([...text.matchAll(UUID)].map((m) => m[0].toLowerCase()))]
  if (ids.length === 1) return { ok: true, projectId: ids[0]!, from }
  if (ids.length === 0)
    return { ok: false, problem: 'No project id found: paste the project’s id (a UUID) or a link that holds it.' }
  if (url !== null) {
    const segments = url.pathname.split('/').map((s) => s.toLowerCase())
    // Stryker disable next-line StringLiteral: equivalent, no text after the last segment tests as no UUID either way
    const afterProject = segments.flatMap((s, i) =>
      PROJECT_SEGMENTS.has(s) && UUID_ALONE.test(segments[i + 1] ?? '') ? [segments[i + 1]!] : []
    )
    if (new Set(afterProject).size === 1) return { ok: true, projectId: afterProject[0]!, from }
  }
  return { ok: false, problem: `That holds ${ids.length} different ids: paste the project’s own id.` }
}

const UUID_ALONE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
