// Where our renderer lives, and whether a URL is it. Plain Node (no electron import), so the
// checks that guard IPC and navigation are tested without Electron.
import { APP_HOST, APP_INDEX_URL, APP_SCHEME } from './app-protocol'

export interface RendererLocation {
  /** The electron-vite dev server (ELECTRON_RENDERER_URL), in development only. */
  devServerUrl?: string
}

/** The URL the window loads: our app:// page, or the dev server in development. */
export function rendererUrl(loc: RendererLocation): string {
  return loc.devServerUrl ?? APP_INDEX_URL
}

/** True only for our own page: the exact dev-server origin, else app://agent-tray/index.html (or /); nothing else. */
export function isOurRendererUrl(url: string, loc: RendererLocation): boolean {
  const parsed = parse(url)
  if (!parsed) return false
  if (loc.devServerUrl !== undefined) {
    const dev = parse(loc.devServerUrl)
    if (!dev || (dev.protocol !== 'http:' && dev.protocol !== 'https:')) return false
    return parsed.origin === dev.origin
  }
  // Node gives a custom scheme's origin as "null": compare its parts instead.
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    (parsed.pathname === '/' || parsed.pathname === '/index.html')
  )
}

function parse(url: string): URL | null {
  if (typeof url !== 'string' || url === '') return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}
