// Signed as Stripe and Slack do, HMAC-SHA256 over "<unix seconds>.<body>": the time lets a receiver refuse a replay
// outside its window, and the body's `id` (the Idempotency-Key) tells a repeat inside it.
import { createHmac, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'X-Agent-Tray-Signature'

/** How far a signature's time may be from the receiver's clock, either way (the README says so). */
export const SIGNATURE_TOLERANCE_S = 300

/** Shorter would be guessed, and could not be told apart from ordinary words when redacted. */
export const MIN_SIGNING_SECRET = 16

/** Why a signing secret cannot be used, or null. */
export function signingSecretProblem(secret: string): string | null {
  return secret.trim().length < MIN_SIGNING_SECRET
    ? `A signing secret is at least ${MIN_SIGNING_SECRET} characters.`
    : null
}

const hmac = (seconds: number, body: string, secret: string): string =>
  createHmac('sha256', secret).update(`${seconds}.${body}`, 'utf8').digest('hex')

/** The header's value for a body sent at `nowMs`. */
export function signBody(body: string, secret: string, nowMs: number): string {
  const seconds = Math.floor(nowMs / 1000)
  return `t=${seconds},v1=${hmac(seconds, body, secret)}`
}

export interface VerifyOptions {
  nowMs?: number
  toleranceS?: number
}

/** What a receiver does: a time within the window, and a v1 that matches, compared in constant time. */
export function verifySignature(
  body: string,
  secret: string,
  header: string | undefined,
  options: VerifyOptions = {}
): boolean {
  if (typeof header !== 'string') return false
  const parts = header.split(',').map((p) => p.trim())
  const t = parts.find((p) => p.startsWith('t='))?.slice(2) ?? ''
  if (!/^\d{1,12}$/.test(t)) return false
  const seconds = Number(t)
  const now = (options.nowMs ?? Date.now()) / 1000
  if (Math.abs(now - seconds) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false
  const expected = Buffer.from(hmac(seconds, body, secret))
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const given = Buffer.from(p.slice(3))
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
}
