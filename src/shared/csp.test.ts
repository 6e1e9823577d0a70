import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy, META_CONTENT_SECURITY_POLICY } from './csp'

describe('content security policy', () => {
  it('is strict: nothing by default, own scripts and styles only, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/)
  })

  it('leaves frame-ancestors out of the <meta> form only', () => {
    expect(META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors')
    expect(META_CONTENT_SECURITY_POLICY).toBe(CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", ''))
  })

  it('relaxes styles and allows the hot-reload socket of that one dev server only', () => {
    const dev = devContentSecurityPolicy('http://localhost:5173/')
    expect(dev).toContain("style-src 'self' 'unsafe-inline'")
    expect(dev).toContain("connect-src 'self' ws://localhost:5173")
    expect(dev).toContain("script-src 'self';")
    expect(dev).not.toContain('unsafe-eval')
    expect(dev).toContain("frame-ancestors 'none'")
  })

  it('takes the secure socket from a dev server on https', () => {
    expect(devContentSecurityPolicy('https://dev.example.test:5173/')).toContain(
      "connect-src 'self' wss://dev.example.test:5173"
    )
  })
})
