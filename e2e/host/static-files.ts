// Serves the built renderer (out/renderer) with the bridge script put in front of the app's own,
// as the preload is in Electron. Until a renderer is built, a minimal page stands in.
import { readFile, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { contentTypeOf } from '../../src/main/app-protocol'

const BRIDGE_TAG = '<script src="/__bridge.js"></script>'

/** The stand-in page: the bridge, and nothing that depends on a renderer. */
export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8" />
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'" />
<title>Agent Tray (test host)</title></head>
<body><main id="app"><h1>Agent Tray test host</h1><p>No renderer is built (run npx electron-vite build).</p></main></body></html>`

/** Puts the bridge before the first script, so `window.agentTray` exists when the app starts. */
export function injectBridge(html: string): string {
  const at = html.search(/<script[\s>]/i)
  if (at !== -1) return `${html.slice(0, at)}${BRIDGE_TAG}\n${html.slice(at)}`
  const head = html.search(/<\/head>/i)
  if (head !== -1) return `${html.slice(0, head)}${BRIDGE_TAG}\n${html.slice(head)}`
  return `${BRIDGE_TAG}\n${html}`
}

export interface StaticFile {
  body: Buffer | string
  type: string
}

/** The file for a URL path under `root`, or null; never anything outside `root`. */
export async function staticFile(root: string | null, urlPath: string): Promise<StaticFile | null> {
  const isIndex = urlPath === '/' || urlPath === '/index.html'
  if (root === null)
    return isIndex ? { body: injectBridge(PLACEHOLDER_HTML), type: contentTypeOf('index.html')! } : null
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const base = resolve(root)
  const file = resolve(join(base, isIndex ? 'index.html' : decoded))
  if (file !== base && !file.startsWith(base + sep)) return null
  try {
    if (!(await stat(file)).isFile()) return null
  } catch {
    return null
  }
  const type = contentTypeOf(file) ?? 'application/octet-stream'
  if (isIndex) return { body: injectBridge(await readFile(file, 'utf8')), type }
  return { body: await readFile(file), type }
}
