// What the app lets a window open in the user's browser. Checked in core before `openExternal`
// and again in main, so a bad URL from a compromised window never reaches the shell.

const MAX_URL_LENGTH = 2048

/** True only for an absolute http: or https: URL with a host and no embedded credentials. */
export function isSafeExternalUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return false
  // Control characters and whitespace are either stripped or rejected differently by each parser.
  if (/\s/.test(url) || hasControlCharacter(url)) return false
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false
  if (parsed.hostname === '') return false
  if (parsed.username !== '' || parsed.password !== '') return false
  return true
}

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}
