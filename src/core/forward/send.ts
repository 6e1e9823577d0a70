// Redirects are not followed (one could lead a token to plain http); every reason is redacted of the target's secrets;
// at most MAX_ANSWER_BYTES of an answer are read.
import { redactSecrets } from '../secrets/redact'
import type { ForwardEvent } from './event'
import { renderRequest } from './render'
import { classifyResponse, type Outcome } from './response'
import { type ParsedTarget, targetSecrets } from './target-url'

export const SEND_TIMEOUT_MS = 15_000
/** The most of an answer that is read (after any decoding fetch does); the rest is cancelled unread. */
export const MAX_ANSWER_BYTES = 64 * 1024

export interface SendDeps {
  now: () => number
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

export type Send = (target: ParsedTarget, event: ForwardEvent, secret?: string) => Promise<Outcome>

// Streamed and cancelled at the cap: fetch decodes as it reads (even when identity is asked), so a gzip bomb is
// inflated no further.
async function readCapped(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value.subarray(0, MAX_ANSWER_BYTES - size))
      size += value.length
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function createSender(deps: SendDeps): Send {
  const fetchFn = deps.fetch ?? globalThis.fetch
  return async (target, event, secret) => {
    const secrets = [...targetSecrets(target.url, target), ...(secret ? [secret] : [])]
    const req = renderRequest(target, event, secret)
    let outcome: Outcome
    try {
      const res = await fetchFn(req.url, {
        method: 'POST',
        // No compression asked for: a receiver's answer is a few words.
        headers: { ...req.headers, 'accept-encoding': 'identity' },
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs ?? SEND_TIMEOUT_MS)
      })
      const text = await readCapped(res)
      outcome = classifyResponse(target.kind, res.status, res.headers, text, deps.now())
    } catch (error) {
      const cause =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      outcome = {
        kind: 'retry',
        reason:
          error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : `not reachable: ${cause}`
      }
    }
    return outcome.kind === 'delivered' ? outcome : { ...outcome, reason: redactSecrets(outcome.reason, secrets) }
  }
}
