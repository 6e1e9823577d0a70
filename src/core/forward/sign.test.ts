import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MIN_SIGNING_SECRET, SIGNATURE_TOLERANCE_S, signBody, signingSecretProblem, verifySignature } from './sign'

const SECRET = 'whsec-0123456789abcdef'
const BODY = '{"version":1,"id":"e1","event":"failed"}'
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0)
const SECONDS = NOW / 1000

describe('the webhook signature', () => {
  it('signs the time with the body: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const v1 = createHmac('sha256', SECRET).update(`${SECONDS}.${BODY}`).digest('hex')
    expect(signBody(BODY, SECRET, NOW + 999)).toBe(`t=${SECONDS},v1=${v1}`)
    expect(verifySignature(BODY, SECRET, signBody(BODY, SECRET, NOW), { nowMs: NOW })).toBe(true)
  })

  it('refuses a time outside the freshness window either way, and takes one at its edge', () => {
    const header = signBody(BODY, SECRET, NOW)
    const window = SIGNATURE_TOLERANCE_S * 1000
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW + window })).toBe(true)
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW - window })).toBe(true)
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW + window + 1000 })).toBe(false)
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW - window - 1000 })).toBe(false)
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW + 60_000, toleranceS: 30 })).toBe(false)
  })

  it('refuses another body, another secret, a time moved, a malformed header and the old body-only form', () => {
    const header = signBody(BODY, SECRET, NOW)
    const at = { nowMs: NOW }
    expect(verifySignature(BODY.replace('failed', 'completed'), SECRET, header, at)).toBe(false)
    expect(verifySignature(BODY, `${SECRET}x`, header, at)).toBe(false)
    // The time is signed: a replay with a fresh t does not verify.
    expect(
      verifySignature(BODY, SECRET, header.replace(`t=${SECONDS}`, `t=${SECONDS + 1}`), { nowMs: NOW + 1000 })
    ).toBe(false)
    for (const bad of [
      undefined,
      '',
      'v1=abc',
      `t=${SECONDS}`,
      `t=x${SECONDS},v1=00`,
      `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`
    ])
      expect(verifySignature(BODY, SECRET, bad, at)).toBe(false)
  })

  it('a signing secret is at least 16 characters', () => {
    expect(signingSecretProblem('a'.repeat(MIN_SIGNING_SECRET - 1))).toBe(
      `A signing secret is at least ${MIN_SIGNING_SECRET} characters.`
    )
    expect(MIN_SIGNING_SECRET).toBe(16)
    expect(signingSecretProblem(` ${'a'.repeat(MIN_SIGNING_SECRET - 1)} `)).not.toBeNull()
    expect(signingSecretProblem('a'.repeat(MIN_SIGNING_SECRET))).toBeNull()
  })
})

describe('verifySignature, as a receiver reads the header', () => {
  const header = signBody(BODY, SECRET, NOW)
  const v1 = header.split(',v1=')[1]!

  it('takes the parts in any order, with spaces, and any one v1 that matches (a secret being rotated)', () => {
    expect(verifySignature(BODY, SECRET, ` v1=${'0'.repeat(64)} , v1=${v1} , t=${SECONDS} `, { nowMs: NOW })).toBe(true)
    expect(verifySignature(BODY, SECRET, `t=${SECONDS},v1=${'0'.repeat(64)}`, { nowMs: NOW })).toBe(false)
    // A v1 of another length is no match (and never reaches the constant-time compare, which would throw).
    expect(verifySignature(BODY, SECRET, `t=${SECONDS},v1=${v1.slice(1)}`, { nowMs: NOW })).toBe(false)
    expect(verifySignature(BODY, SECRET, `t=${SECONDS},v1=${v1}0`, { nowMs: NOW })).toBe(false)
    expect(verifySignature(BODY, SECRET, `t=${SECONDS},x1=${v1}`, { nowMs: NOW })).toBe(false)
  })

  it('a time of 1 to 12 digits only', () => {
    expect(verifySignature(BODY, SECRET, `t=${SECONDS}0,v1=${v1}`, { nowMs: NOW, toleranceS: 1e12 })).toBe(false)
    expect(verifySignature(BODY, SECRET, `t=${SECONDS} 1,v1=${v1}`, { nowMs: NOW })).toBe(false)
    expect(verifySignature(BODY, SECRET, `t=-${SECONDS},v1=${v1}`, { nowMs: NOW })).toBe(false)
    const early = signBody(BODY, SECRET, 5_000)
    expect(verifySignature(BODY, SECRET, early, { nowMs: 5_000 })).toBe(true)
  })

  it("by default, now by the receiver's clock and a window of 300 s", () => {
    expect(verifySignature(BODY, SECRET, signBody(BODY, SECRET, Date.now()))).toBe(true)
    expect(verifySignature(BODY, SECRET, signBody(BODY, SECRET, Date.now() - 2 * SIGNATURE_TOLERANCE_S * 1000))).toBe(
      false
    )
    expect(verifySignature(BODY, SECRET, header, { nowMs: NOW + (SIGNATURE_TOLERANCE_S + 1) * 1000 })).toBe(false)
  })

  it('signs the body as UTF-8, to the second', () => {
    const body = '{"title":"Café ✓"}'
    const v = createHmac('sha256', SECRET)
      .update(Buffer.from(`${SECONDS}.${body}`, 'utf8'))
      .digest('hex')
    expect(signBody(body, SECRET, NOW + 999)).toBe(`t=${SECONDS},v1=${v}`)
  })
})

describe('a time that is not digits', () => {
  it('is refused even with a v1 made over it (NaN would pass the window check)', () => {
    for (const t of ['x', 'x1', '1x', '']) {
      const v1 = createHmac('sha256', SECRET)
        .update(`${Number(t === '' ? 'NaN' : t)}.${BODY}`)
        .digest('hex')
      expect(verifySignature(BODY, SECRET, `t=${t},v1=${v1}`, { nowMs: NOW }), t).toBe(false)
    }
    const nan = createHmac('sha256', SECRET).update(`NaN.${BODY}`).digest('hex')
    expect(verifySignature(BODY, SECRET, `v1=${nan}`, { nowMs: 0 })).toBe(false)
  })
})
