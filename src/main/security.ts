// Electron's security checklist, applied to every web contents and the default session: no
// navigation away from our page, no new windows, no webviews, no permissions, a strict CSP.
import type { App, Session, WebContents } from 'electron'
import { withCsp } from './csp'
import { mayNavigate, windowOpenDecision } from './navigation'
import type { RendererLocation } from './renderer-origin'

export interface SecurityDeps {
  loc: RendererLocation
  /** Opens a URL in the user's browser; called only with URLs that passed isSafeExternalUrl. */
  openExternal: (url: string) => void
  log: (message: string) => void
}

/** Call before the app is ready, so no web contents is created unguarded. */
export function guardWebContents(app: App, deps: SecurityDeps): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, deps))
}

export function hardenWebContents(contents: WebContents, deps: SecurityDeps): void {
  const refuse = (what: string) => (event: { preventDefault(): void; url: string }) => {
    if (mayNavigate(event.url, deps.loc)) return
    event.preventDefault()
    deps.log(`security: blocked ${what} to ${originOf(event.url)}`)
  }
  contents.on('will-navigate', refuse('navigation'))
  contents.on('will-frame-navigate', refuse('frame navigation'))
  contents.on('will-redirect', refuse('redirect'))
  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
    deps.log('security: blocked a webview')
  })
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url)
    if (decision.openExternal) deps.openExternal(decision.openExternal)
    else deps.log(`security: blocked a new window for ${originOf(url)}`)
    return { action: decision.action }
  })
}

/** Denies every permission request and check, and sets our CSP on every response. */
export function hardenSession(session: Session, policy?: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, policy) })
  })
}

// Logs name where, never the full URL: a query string may carry a token.
function originOf(url: string): string {
  try {
    const u = new URL(url)
    if (u.protocol === 'file:') return 'a local file'
    // A custom scheme's origin reads "null" in Node: name its scheme and host instead.
    return u.origin !== 'null' ? u.origin : `${u.protocol}${u.host ? `//${u.host}` : ''}`
  } catch {
    return 'an invalid URL'
  }
}
