// The page is served from app://agent-tray/, never file:// (Electron's checklist, item 18), so it is an origin of its
// own with no reach into other local files. Plain Node (types only from electron), so it is tested here.
import { readFile as fsReadFile } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, sep } from 'node:path'
import type { CustomScheme } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../shared/csp'

export const APP_SCHEME = 'app'
export const APP_HOST = 'agent-tray'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`

/** Standard (an origin, relative URLs, storage), secure and fetch; no bypassCSP, no service workers. */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true }
}

/** Only the kinds of file the build makes; anything else is not served. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8'
}

export function contentTypeOf(file: string): string | null {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? null
}

export type Resolved = { ok: true; file: string; contentType: string } | { ok: false; reason: string }

/** A percent-encoded URL path to a file under `root`; refuses, whatever the encoding, anything that could leave it
 *  (dot, empty or slashed segments, drive letters, colons, NUL) and any file type we do not serve. */
export function resolveAppPath(pathname: string, root: string): Resolved {
  if (!pathname.startsWith('/')) return { ok: false, reason: 'not an absolute URL path' }
  const raw = pathname === '/' ? ['index.html'] : pathname.slice(1).split('/')
  const segments: string[] = []
  for (const part of raw) {
    let segment: string
    try {
      segment = decodeURIComponent(part)
    } catch {
      return { ok: false, reason: 'bad percent-encoding' }
    }
    if (segment === '' || segment === '.' || segment === '..') return { ok: false, reason: 'dot or empty segment' }
    if (/[/\\:\0]/.test(segment)) return { ok: false, reason: 'separator in a segment' }
    segments.push(segment)
  }
  const file = join(root, ...segments)
  // Belt and braces: whatever the platform's path rules, the file must lie inside root.
  const rel = relative(root, file)
  if (rel === '' || isAbsolute(rel) || rel.split(sep).includes('..')) {
    return { ok: false, reason: 'outside the renderer folder' }
  }
  const contentType = contentTypeOf(file)
  if (!contentType) return { ok: false, reason: 'not a type we serve' }
  return { ok: true, file, contentType }
}

/** A whole request URL: only app://agent-tray/…, query and fragment ignored. */
export function resolveAppUrl(url: string, root: string): Resolved {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, reason: 'not a URL' }
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST || parsed.username || parsed.password) {
    return { ok: false, reason: 'not our origin' }
  }
  return resolveAppPath(parsed.pathname, root)
}

/** Headers on everything the scheme answers, errors included. */
function baseHeaders(policy: string): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache'
  }
}

export interface AppProtocolOptions {
  /** Absolute path of out/renderer. */
  root: string
  policy?: string
  readFile?: (file: string) => Promise<Uint8Array>
  log?: (message: string) => void
}

/** The handler for protocol.handle('app', …). Never throws: a bad request is a 404 or 405. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const policy = options.policy ?? CONTENT_SECURITY_POLICY
  const read = options.readFile ?? ((file: string) => fsReadFile(file))
  const notFound = (): Response =>
    new Response('Not found', {
      status: 404,
      headers: { ...baseHeaders(policy), 'Content-Type': 'text/plain; charset=utf-8' }
    })
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { ...baseHeaders(policy), Allow: 'GET, HEAD' } })
    }
    const resolved = resolveAppUrl(request.url, options.root)
    if (!resolved.ok) {
      options.log?.(`protocol: refused a request (${resolved.reason})`)
      return notFound()
    }
    let body: Uint8Array
    try {
      body = await read(resolved.file)
    } catch {
      return notFound()
    }
    const headers = { ...baseHeaders(policy), 'Content-Type': resolved.contentType }
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers })
  }
}
