// What the app lets a window open in the user's browser. Checked in core before `openExternal`
// and again in main, so a bad URL from a compromised window never reaches the shell.

const MAX_URL_LENGTH = 2048

/** True only for an absolute http: or https: URL with a host and no embedded credentials. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH) return false
  // Control characters and whitespace are either stripped or rejected differently by each parser.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return false
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  // An http(s) URL without a host does not parse (WHATWG URL: special schemes need one), nor does ''.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false
  if (parsed.username !== '' || parsed.password !== '') return false
  return true
}
