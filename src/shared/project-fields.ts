// The rules for the project fields a person types (create and edit), checked by the window's forms
// and again by the app's request schemas.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const MAX_EMAIL_LENGTH = 254
/** Schemes a return URL may never use: they run code or read files where the link is opened. */
const BLOCKED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:'])
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/

/** Something@domain, without spaces; empty is allowed (it clears the field). */
export function isEmail(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && EMAIL.test(text)
}

/** Where the prebuilt interface sends the user back: any absolute URL but the script and file schemes. */
export function isReturnUrl(text: string): boolean {
  if (text.length > 2048 || CONTROL_OR_SPACE.test(text)) return false
  const url = URL.parse(text)
  return url !== null && !BLOCKED_SCHEMES.has(url.protocol)
}
