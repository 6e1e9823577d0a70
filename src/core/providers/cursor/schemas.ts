// Tolerant schemas for the Cursor Cloud Agents API v1's bodies (mapping.ts names the pages): extra fields and unknown
// words never fail a record; an agent or run without an id does, and is dropped alone.
import { z } from 'zod'
import { isJsonObject } from '../../../shared/json-object'
import { idField as id, rawString, textField as text } from '../../client/schemas'

export interface CursorBranch {
  repoUrl: string | null
  branch: string | null
  prUrl: string | null
}

function branches(git: unknown): CursorBranch[] {
  if (!isJsonObject(git) || !Array.isArray(git.branches)) return []
  return git.branches.flatMap((b) => {
    if (!isJsonObject(b)) return []
    const pick = (v: unknown) => rawString(v) || null
    return [{ repoUrl: pick(b.repoUrl), branch: pick(b.branch ?? b.branchName), prUrl: pick(b.prUrl) }]
  })
}

function repoUrls(repos: unknown, source: unknown): string[] {
  const urls = Array.isArray(repos)
    ? repos.flatMap((r) => (isJsonObject(r) && rawString(r.url) ? [rawString(r.url) as string] : []))
    : []
  // v0's agents name one repository as source.repository.
  if (urls.length === 0 && isJsonObject(source) && rawString(source.repository))
    urls.push(rawString(source.repository) as string)
  return urls
}

export const agentSchema = z
  .looseObject({
    id,
    name: text,
    url: text,
    createdAt: text,
    updatedAt: text,
    latestRunId: text,
    repos: z.unknown().optional(),
    source: z.unknown().optional()
  })
  .transform((a) => ({
    id: a.id,
    name: a.name,
    url: a.url,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    latestRunId: a.latestRunId,
    repos: repoUrls(a.repos, a.source)
  }))
export type CursorAgent = z.output<typeof agentSchema>

const duration = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null))

export const runSchema = z
  .looseObject({
    id,
    agentId: text,
    status: z.unknown().optional(),
    result: text,
    durationMs: duration,
    createdAt: text,
    updatedAt: text,
    git: z.unknown().optional()
  })
  .transform((r) => ({
    id: r.id,
    agentId: r.agentId,
    status: r.status,
    result: r.result,
    durationMs: r.durationMs,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    branches: branches(r.git)
  }))
export type CursorRun = z.output<typeof runSchema>
