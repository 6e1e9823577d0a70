// What a web page may do to leave our app: navigate only within our own page, open no windows.
// http(s) links asked to open in a new window go to the user's browser after the URL check.
import { isSafeExternalUrl } from '../shared/url'
import type { RendererLocation } from './renderer-origin'
import { isOurRendererUrl } from './renderer-origin'

/** will-navigate / will-redirect: reloading our own page is fine, anything else is not. */
export function mayNavigate(url: string, loc: RendererLocation): boolean {
  return isOurRendererUrl(url, loc)
}

/** setWindowOpenHandler: never a new Electron window; a safe web link opens in the browser. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternal: string | null } {
  return { action: 'deny', openExternal: isSafeExternalUrl(url) ? url : null }
}
