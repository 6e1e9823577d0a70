// The one redaction of secrets for people and logs. A server may echo a key as sent, JSON-escaped or URL-encoded
// inside its own text, so each form is caught.

/** Shorter secrets would blank out ordinary words; no real key is that short. A URL part that may be a
 * word (an ntfy topic) comes with its URL text around it instead (forward/target-url.ts targetSecrets). */
export const MIN_SECRET_LENGTH = 4

/** What a secret becomes in the command's output (the client's own errors say '[api key]'). */
export const REDACTED = '[redacted]'

const ALNUM = /^[A-Za-z0-9]$/

function percent(c: string, upper: boolean): string {
  let encoded: string
  try {
    encoded = ALNUM.test(c)
      ? c
      : c.charCodeAt(0) < 0x80
        ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`
        : encodeURIComponent(c)
  } catch {
    return c // a lone surrogate has no URL form
  }
  return upper
    ? encoded.replace(/%[0-9a-f]{2}/gi, (h) => h.toUpperCase())
    : encoded.replace(/%[0-9a-f]{2}/gi, (h) => h.toLowerCase())
}

function unicodeEscape(c: string, upper: boolean): string {
  if (ALNUM.test(c)) return c
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0')
  return `\\u${upper ? hex.toUpperCase() : hex}`
}

/** JSON encoders that also escape '<', '>' and '&' (Go's, by default). */
const htmlSafe = (json: string): string =>
  json.replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026')

/** A secret as is, JSON-escaped and URL-encoded in each common variant. Longest first, so no form is left half
 * replaced. */
export function secretForms(secret: string): string[] {
  const units = secret.split('')
  const json = JSON.stringify(secret).slice(1, -1)
  const jsonSolidus = json.replaceAll('/', '\\/')
  let uri: string[] = []
  try {
    const component = encodeURIComponent(secret)
    uri = [component, component.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())]
  } catch {
    // A lone surrogate: no URL form.
  }
  const forms = [
    secret,
    json,
    jsonSolidus,
    htmlSafe(json),
    htmlSafe(jsonSolidus),
    units.map((c) => unicodeEscape(c, false)).join(''),
    units.map((c) => unicodeEscape(c, true)).join(''),
    ...uri,
    units.map((c) => percent(c, true)).join(''),
    units.map((c) => percent(c, false)).join('')
  ]
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}

/** A function that replaces every form of each secret with `marker`; secrets shorter than MIN_SECRET_LENGTH are left alone. */
export function secretRedactor(
  secrets: readonly (string | undefined)[],
  marker: string = REDACTED
): (text: string) => string {
  const forms = [
    ...new Set(
      secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH).flatMap(secretForms)
    )
  ].sort((a, b) => b.length - a.length)
  return (text) => {
    let out = text
    for (const form of forms) out = out.split(form).join(marker)
    return out
  }
}

/** Replaces every form of the secrets in one text. */
export function redactSecrets(
  text: string,
  secrets: readonly (string | undefined)[],
  marker: string = REDACTED
): string {
  return secretRedactor(secrets, marker)(text)
}
