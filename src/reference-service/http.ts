// Reading requests and writing answers: body limits, JSON, and the ways a faulty server answers.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from './api-error'
import { type Coding, compress, MIN_COMPRESSED_BYTES } from './compression'
import type { DecisiveFault } from './faults'

export const MAX_BODY_BYTES = 1024 * 1024
/** Past this we stop draining an oversized body and drop the connection. */
const DRAIN_LIMIT = 64 * MAX_BODY_BYTES

export interface Reply {
  status: number
  headers?: Record<string, string>
  body: string
  contentType?: string
  /** Already known (e.g. remembered by the store); otherwise a GET's 200 gets one from its body. */
  etag?: string
  /** A long-lived answer (server-sent events): given the response once its head is written; `body` is unused. */
  stream?: (res: ServerResponse) => void
}

/** A weak ETag of a body: equal bodies, equal tags. */
export function weakEtag(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`
}

/** If-None-Match against a tag, by weak comparison (RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}

export const notModified = (etag: string): Reply => ({ status: 304, body: '', etag })

export const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  headers,
  body: JSON.stringify(value)
})

export const errorReply = (e: ApiError): Reply => json(e.status, e.body(), e.headers)

/** The body as text; an ApiError 413 when over the limit (the rest is drained so the client sees the answer). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT) {
      reject(tooLarge())
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > DRAIN_LIMIT) {
        req.destroy()
        return
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => (size > MAX_BODY_BYTES ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', reject)
  })
}

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`,
    undefined,
    413,
    {
      connection: 'close'
    }
  )
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid JSON.', 'body')
  }
}

/** Returns the body bytes meant for the client, before compression; a malformed body is broken before it is
 *  compressed (the server made it so), a truncated or slow one is cut or trickled on the wire. */
export function send(
  res: ServerResponse,
  reply: Reply,
  fault: DecisiveFault | undefined,
  timers: Set<NodeJS.Timeout>,
  coding?: Coding
): number {
  // Node refuses a header whose value is undefined: the tag only when there is one.
  const tagged = reply.etag ? { ...reply.headers, etag: reply.etag } : reply.headers
  if (reply.status === 304) {
    res.writeHead(304, tagged)
    res.end()
    return 0
  }
  let body: Buffer = Buffer.from(reply.body, 'utf8')
  if (fault?.kind === 'malformed') {
    body = Buffer.concat([
      body.subarray(0, Math.floor(body.length / 2)),
      Buffer.from('<!-- upstream error -->{{', 'utf8')
    ])
  }
  const meant = body.length
  const headers: Record<string, string> = {
    'content-type': reply.contentType ?? 'application/json; charset=utf-8',
    ...tagged
  }
  if (coding && body.length >= MIN_COMPRESSED_BYTES) {
    body = compress(body, coding)
    headers['content-encoding'] = coding
  }
  if (coding) headers.vary = 'accept-encoding'
  res.writeHead(reply.status, { ...headers, 'content-length': String(body.length) })
  if (fault?.kind === 'truncated') {
    const part = body.subarray(0, Math.floor(body.length / 2))
    res.write(part, () => res.socket?.destroy())
    return Math.floor(meant / 2)
  }
  if (fault?.kind === 'slow') {
    const size = Math.max(1, fault.chunkBytes ?? 64)
    const interval = Math.max(1, fault.intervalMs ?? 50)
    let offset = 0
    const tick = (): void => {
      if (res.destroyed) return
      const next = body.subarray(offset, offset + size)
      offset += size
      if (offset >= body.length) {
        res.end(next)
        return
      }
      res.write(next)
      const timer = setTimeout(() => {
        timers.delete(timer)
        tick()
      }, interval)
      timers.add(timer)
    }
    tick()
    return meant
  }
  res.end(body)
  return meant
}
