// Tolerant schemas for the Jules API's bodies (mapping.ts names the pages): extra fields and unknown words never fail a
// record; a session or activity with neither id nor name does, and is dropped alone.
import { z } from 'zod'
import { isJsonObject } from '../../../shared/json-object'
import { rawString, textField as text } from '../../client/schemas'

type Json = Record<string, unknown>

const object = z
  .unknown()
  .optional()
  .transform((v): Json | null => (isJsonObject(v) ? v : null))

/** The id, else the last part of the resource name ("sessions/123" → "123"). */
function idFrom(id: string, name: string): string {
  if (id !== '') return id
  const last = name.split('/').pop() ?? ''
  return last
}

export interface JulesPullRequest {
  url: string | null
  title: string | null
}

function pullRequests(outputs: unknown): JulesPullRequest[] {
  if (!Array.isArray(outputs)) return []
  return outputs.flatMap((o) => {
    if (!isJsonObject(o) || !isJsonObject(o.pullRequest)) return []
    return [{ url: rawString(o.pullRequest.url) ?? null, title: rawString(o.pullRequest.title) ?? null }]
  })
}

export const sessionSchema = z
  .looseObject({
    name: text,
    id: text,
    title: text,
    prompt: text,
    state: z.unknown().optional(),
    url: text,
    createTime: text,
    updateTime: text,
    sourceContext: object,
    outputs: z.unknown().optional()
  })
  .transform((s, ctx) => {
    const id = idFrom(s.id, s.name)
    if (id === '') {
      ctx.issues.push({ code: 'custom', message: 'neither id nor name', input: s, path: ['id'] })
      return z.NEVER
    }
    return {
      id,
      title: s.title,
      prompt: s.prompt,
      state: s.state,
      url: s.url,
      createTime: s.createTime,
      updateTime: s.updateTime,
      source: s.sourceContext ? (rawString(s.sourceContext.source) ?? null) : null,
      pullRequests: pullRequests(s.outputs)
    }
  })
export type JulesSession = z.output<typeof sessionSchema>

/** The documented kinds of activity: exactly one is set on each. */
export const ACTIVITY_KINDS = [
  'agentMessaged',
  'userMessaged',
  'planGenerated',
  'planApproved',
  'progressUpdated',
  'sessionCompleted',
  'sessionFailed'
] as const
export type ActivityKind = (typeof ACTIVITY_KINDS)[number]

export const activitySchema = z
  .looseObject({
    name: text,
    id: text,
    description: text,
    createTime: text,
    originator: text,
    agentMessaged: object,
    userMessaged: object,
    planGenerated: object,
    planApproved: object,
    progressUpdated: object,
    sessionCompleted: object,
    sessionFailed: object
  })
  .transform((a, ctx) => {
    const id = idFrom(a.id, a.name)
    if (id === '') {
      ctx.issues.push({ code: 'custom', message: 'neither id nor name', input: a, path: ['id'] })
      return z.NEVER
    }
    const kind = ACTIVITY_KINDS.find((k) => a[k] !== null) ?? null
    return {
      id,
      description: a.description,
      createTime: a.createTime,
      originator: a.originator,
      kind,
      /** The set kind's own object. */
      body: kind === null ? {} : (a[kind] as Json)
    }
  })
export type JulesActivity = z.output<typeof activitySchema>
