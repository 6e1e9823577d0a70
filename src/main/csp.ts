// The Content-Security-Policy of our page. The renderer's index.html carries the same policy in
// a <meta> for file://; this header covers the dev server and anything served over HTTP.

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

export type ResponseHeaders = Record<string, string[] | string>

/** The response headers with our policy, replacing any CSP the response had (in any case). */
export function withCsp(headers: ResponseHeaders | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue
    out[name] = Array.isArray(value) ? value : [value]
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY]
  return out
}
