// The generic webhook's signature: HMAC-SHA256 over the exact body bytes, hex, in a header named
// like GitHub's (X-Hub-Signature-256: sha256=…), so receivers can reuse the same check.
import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'X-Agent-Tray-Signature-256'

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`
}

/** What a receiver does: recompute and compare in constant time. */
export function verifySignature(body: string, secret: string, header: string | undefined): boolean {
  if (typeof header !== 'string') return false
  const expected = Buffer.from(signBody(body, secret))
  const given = Buffer.from(header)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
