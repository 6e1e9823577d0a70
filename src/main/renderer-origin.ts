// Where our renderer lives, and whether a URL is it. Plain Node (no electron import), so the
// checks that guard IPC and navigation are tested without Electron.
import { pathToFileURL } from 'node:url'

export interface RendererLocation {
  /** The electron-vite dev server (ELECTRON_RENDERER_URL), in development only. */
  devServerUrl?: string
  /** Absolute path of out/renderer/index.html. */
  rendererFile: string
}

/** The URL the window loads. */
export function rendererUrl(loc: RendererLocation): string {
  return loc.devServerUrl ?? pathToFileURL(loc.rendererFile).href
}

/**
 * True only for our own page: in development the exact dev-server origin, otherwise the file://
 * URL of our index.html (any query or fragment, never another file). about:blank, data:,
 * other origins and other paths are all refused.
 */
export function isOurRendererUrl(url: string, loc: RendererLocation): boolean {
  const parsed = parse(url)
  if (!parsed) return false
  if (loc.devServerUrl !== undefined) {
    const dev = parse(loc.devServerUrl)
    if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false
    return parsed.origin === dev.origin
  }
  if (parsed.protocol !== 'file:' || parsed.host !== '') return false
  const expected = new URL(pathToFileURL(loc.rendererFile).href)
  return samePath(parsed.pathname, expected.pathname)
}

function parse(url: string): URL | null {
  if (typeof url !== 'string' || url === '') return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}

// Percent-encoding may differ (e.g. %20 vs a space encoded by Chromium); compare decoded paths.
function samePath(a: string, b: string): boolean {
  try {
    return decodeURIComponent(a) === decodeURIComponent(b)
  } catch {
    return false
  }
}
