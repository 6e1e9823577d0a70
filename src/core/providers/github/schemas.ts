// Tolerant schemas for the Agent tasks API's bodies (mapping.ts names the pages): extra fields and unknown words never
// fail a record; a task without an id does, and is dropped alone.
import { z } from 'zod'
import { isJsonObject } from '../../../shared/json-object'
import { idField as id, rawString, textField as text } from '../../client/schemas'

const list = z
  .unknown()
  .optional()
  .transform((v) => (Array.isArray(v) ? v : []))

/** `{id}` objects (repository, owner): the id as a string, else null. */
const idOf = z
  .unknown()
  .optional()
  .transform((v) => (isJsonObject(v) ? (rawString(v.id) ?? null) : null))

export interface GithubUsage {
  type: string
  amount: number
}

const usage = z
  .unknown()
  .optional()
  .transform((v): GithubUsage | null => {
    if (!isJsonObject(v)) return null
    const type = rawString(v.type)
    const amount = v.amount
    return type !== undefined && typeof amount === 'number' && Number.isFinite(amount) ? { type, amount } : null
  })

export const sessionSchema = z
  .looseObject({
    id,
    name: text,
    state: z.unknown().optional(),
    created_at: text,
    updated_at: text,
    completed_at: text,
    prompt: text,
    model: text,
    usage,
    error: z.unknown().optional()
  })
  .transform((s) => ({
    id: s.id,
    name: s.name,
    state: s.state,
    created_at: s.created_at,
    updated_at: s.updated_at,
    prompt: s.prompt,
    model: s.model,
    usage: s.usage,
    errorMessage: isJsonObject(s.error) ? (rawString(s.error.message) ?? null) : null
  }))
export type GithubSession = z.output<typeof sessionSchema>

/** The ids of the pull requests among a task's artifacts (`{provider: github, type: pull, data: {id}}`). */
function pullIds(artifacts: unknown[]): string[] {
  return artifacts.flatMap((a) => {
    if (!isJsonObject(a) || a.type !== 'pull' || !isJsonObject(a.data)) return []
    const pr = rawString(a.data.id)
    return pr === undefined ? [] : [pr]
  })
}

export const taskSchema = z
  .looseObject({
    id,
    url: text,
    html_url: text,
    name: text,
    state: z.unknown().optional(),
    repository: idOf,
    artifacts: list,
    created_at: text,
    updated_at: text,
    sessions: z.unknown().optional()
  })
  .transform((t) => ({
    id: t.id,
    html_url: t.html_url,
    name: t.name,
    state: t.state,
    repositoryId: t.repository,
    pulls: pullIds(t.artifacts),
    created_at: t.created_at,
    updated_at: t.updated_at,
    /** Raw: read one by one by the client, so one bad session drops alone. Absent from list answers. */
    rawSessions: Array.isArray(t.sessions) ? (t.sessions as unknown[]) : undefined
  }))

export type GithubTask = Omit<z.output<typeof taskSchema>, 'rawSessions'> & { sessions?: GithubSession[] }
