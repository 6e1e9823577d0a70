// The app:// handler sends the header on every answer and the session on anything else, so no response lacks it.
import { CONTENT_SECURITY_POLICY } from '../shared/csp'

export { CONTENT_SECURITY_POLICY }

export type ResponseHeaders = Record<string, string[] | string>

/** The response headers with our policy, replacing any CSP the response had (in any case). */
export function withCsp(
  headers: ResponseHeaders | undefined,
  policy: string = CONTENT_SECURITY_POLICY
): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue
    out[name] = Array.isArray(value) ? value : [value]
  }
  out['Content-Security-Policy'] = [policy]
  return out
}
