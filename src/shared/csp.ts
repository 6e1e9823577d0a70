// The window's Content-Security-Policy, written once: main sets it as a header and the build
// puts it in index.html's <meta> (for file://, where no header exists).

const POLICY = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"]
} satisfies Record<string, string[]>

function serialize(policy: Record<string, string[]>): string {
  return Object.entries(policy)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ')
}

/** What the shipped app runs under. */
export const CONTENT_SECURITY_POLICY = serialize(POLICY)

/** The same policy for a <meta> tag, which cannot carry frame-ancestors (browsers ignore it there). */
export const META_CONTENT_SECURITY_POLICY = serialize(
  Object.fromEntries(Object.entries(POLICY).filter(([directive]) => directive !== 'frame-ancestors'))
)

/** Development only: Vite's dev server injects <style> elements and keeps a hot-reload websocket open. */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const url = new URL(devServerUrl)
  const websocket = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`
  return serialize({
    ...POLICY,
    'style-src': [...POLICY['style-src'], "'unsafe-inline'"],
    'connect-src': [...POLICY['connect-src'], websocket]
  })
}
