// Sends one rendered request and reads the answer (response.ts). Redirects are not followed (a
// redirect could lead a token to plain http); every reason is redacted of the target's secrets.
import { redactSecrets } from '../secrets/redact'
import type { ForwardEvent } from './event'
import { renderRequest } from './render'
import { classifyResponse, type Outcome } from './response'
import { targetSecrets, type ParsedTarget } from './target'

export const SEND_TIMEOUT_MS = 15_000
const MAX_ANSWER_BYTES = 64 * 1024

export interface SendDeps {
  now: () => number
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

export type Send = (target: ParsedTarget, event: ForwardEvent, secret?: string) => Promise<Outcome>

export function createSender(deps: SendDeps): Send {
  const fetchFn = deps.fetch ?? globalThis.fetch
  return async (target, event, secret) => {
    const secrets = [...targetSecrets(target.url, target), ...(secret ? [secret] : [])]
    const req = renderRequest(target, event, secret)
    let outcome: Outcome
    try {
      const res = await fetchFn(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs ?? SEND_TIMEOUT_MS)
      })
      const text = (await res.text()).slice(0, MAX_ANSWER_BYTES)
      outcome = res.status >= 300 && res.status < 400 ? { kind: 'refused', reason: `HTTP ${res.status}: the target redirects; give its final URL.` } : classifyResponse(target.kind, res.status, res.headers, text, deps.now())
    } catch (error) {
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      outcome = { kind: 'retry', reason: error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : `not reachable: ${cause}` }
    }
    return outcome.kind === 'delivered' ? outcome : { ...outcome, reason: redactSecrets(outcome.reason, secrets) }
  }
}
