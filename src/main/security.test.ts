import { EventEmitter } from 'node:events'
import type { Session, WebContents } from 'electron'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from './csp'
import { hardenSession, hardenWebContents } from './security'

// Electron cannot run here: these stand in for a WebContents and a Session, with just the
// members security.ts calls, so the wiring (which event, which answer) is checked.
function fakeContents() {
  const emitter = new EventEmitter()
  let openHandler: ((d: { url: string }) => { action: string }) | null = null
  const contents = Object.assign(emitter, {
    setWindowOpenHandler: (h: typeof openHandler) => {
      openHandler = h
    }
  })
  const fire = (event: string, url: string): boolean => {
    let prevented = false
    emitter.emit(event, { url, preventDefault: () => (prevented = true) })
    return prevented
  }
  return { contents: contents as unknown as WebContents, fire, open: (url: string) => openHandler!({ url }) }
}

const loc = {}

describe('hardenWebContents', () => {
  it('blocks navigation and redirects away from our page, in any frame', () => {
    const { contents, fire } = fakeContents()
    const logs: string[] = []
    hardenWebContents(contents, { loc, openExternal: () => {}, log: (m) => logs.push(m) })
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(fire(event, 'https://evil.example/x?token=abc'), event).toBe(true)
      expect(fire(event, 'app://agent-tray/index.html#/tasks'), event).toBe(false)
      expect(fire(event, 'file:///app/out/renderer/index.html'), event).toBe(true)
    }
    expect(logs.join('\n')).toContain('https://evil.example')
    expect(logs.join('\n')).not.toContain('token=abc')
  })

  it('blocks webviews', () => {
    const { contents, fire } = fakeContents()
    hardenWebContents(contents, { loc, openExternal: () => {}, log: () => {} })
    expect(fire('will-attach-webview', 'https://example.com')).toBe(true)
  })

  it('denies every new window and opens only safe web links in the browser', () => {
    const { contents, open } = fakeContents()
    const opened: string[] = []
    hardenWebContents(contents, { loc, openExternal: (u) => opened.push(u), log: () => {} })
    expect(open('https://example.com/docs')).toEqual({ action: 'deny' })
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' })
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' })
    expect(opened).toEqual(['https://example.com/docs'])
  })
})

describe('hardenSession', () => {
  it('denies permission requests and checks, and sets the CSP on responses', () => {
    let request: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null
    let check: ((...a: unknown[]) => boolean) | null = null
    let headers: ((d: { responseHeaders?: Record<string, string[]> }, cb: (r: unknown) => void) => void) | null = null
    const session = {
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
      webRequest: { onHeadersReceived: (h: typeof headers) => (headers = h) }
    }
    hardenSession(session as unknown as Session)
    const answers: boolean[] = []
    for (const p of ['notifications', 'media', 'geolocation', 'openExternal'])
      request!(null, p, (ok) => answers.push(ok))
    expect(answers).toEqual([false, false, false, false])
    expect(check!(null, 'clipboard-read', 'file://', {})).toBe(false)
    let result: unknown
    headers!({ responseHeaders: { 'Content-Security-Policy': ['default-src *'] } }, (r) => (result = r))
    expect(result).toEqual({ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } })
  })
})
