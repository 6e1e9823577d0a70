import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY, withCsp } from './csp'
import { mayNavigate, windowOpenDecision } from './navigation'
import { rendererUrl } from './renderer-origin'

const loc = {}

describe('navigation', () => {
  it('lets our page reload itself and nothing else', () => {
    expect(mayNavigate(rendererUrl(loc), loc)).toBe(true)
    expect(rendererUrl(loc)).toBe('app://agent-tray/index.html')
    expect(mayNavigate('app://agent-tray/#/settings', loc)).toBe(true)
    expect(mayNavigate('app://agent-tray/other.html', loc)).toBe(false)
    expect(mayNavigate('https://example.com/', loc)).toBe(false)
    expect(mayNavigate('file:///app/out/renderer/index.html', loc)).toBe(false)
    expect(mayNavigate('file:///etc/passwd', loc)).toBe(false)
    expect(mayNavigate('javascript:alert(1)', loc)).toBe(false)
  })

  it('loads and allows the dev server in development', () => {
    const dev = { ...loc, devServerUrl: 'http://localhost:5173' }
    expect(rendererUrl(dev)).toBe('http://localhost:5173')
    expect(mayNavigate('http://localhost:5173/', dev)).toBe(true)
    expect(mayNavigate('http://localhost:5999/', dev)).toBe(false)
    expect(mayNavigate('app://agent-tray/index.html', dev)).toBe(false)
  })

  it('never opens a window, and sends only safe web links to the browser', () => {
    expect(windowOpenDecision('https://example.com/x')).toEqual({
      action: 'deny',
      openExternal: 'https://example.com/x'
    })
    expect(windowOpenDecision('http://example.com')).toEqual({ action: 'deny', openExternal: 'http://example.com' })
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com/',
      'about:blank',
      ''
    ]) {
      expect(windowOpenDecision(bad)).toEqual({ action: 'deny', openExternal: null })
    }
  })
})

describe('withCsp', () => {
  it('sets the strict policy and replaces any other in whatever case', () => {
    const h = withCsp({ 'content-security-policy': ['default-src *'], 'Content-Type': 'text/html' })
    expect(h['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY])
    expect(h['content-security-policy']).toBeUndefined()
    expect(h['Content-Type']).toEqual(['text/html'])
    expect(withCsp(undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('is strict: nothing by default, no inline script, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'")
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';")
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'")
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/)
  })
})
