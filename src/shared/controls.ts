// Text from the service is printed only with these characters written out as \uXXXX: controls can drive a terminal
// (escape sequences, OSC 52 clipboard writes) and bidi overrides can make a name read as something else.

/** A control character, where a value must be one line (names, ids, titles). */
// eslint-disable-next-line no-control-regex
export const LINE_CONTROL = /[\u0000-\u001f\u007f]/
/** A control character but tab and newlines, where a value may have several lines. */
// eslint-disable-next-line no-control-regex
export const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** Whether a UTF-16 code unit is one of those characters. */
export function isUnsafeToShow(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  )
}

const NEWLINE = 0x0a

/** Whether `text` has any character that isUnsafeToShow (a line feed included). */
export function hasUnsafeCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isUnsafeToShow(text.charCodeAt(i))) return true
  return false
}

/** `text` with each unsafe character written out as \uXXXX; `keepNewlines` for output already made of lines. */
export function escapeUnsafeCharacters(text: string, options: { keepNewlines?: boolean } = {}): string {
  const keep = options.keepNewlines === true
  let out = ''
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!isUnsafeToShow(code) || (keep && code === NEWLINE)) continue
    out += text.slice(from, i) + `\\u${code.toString(16).padStart(4, '0')}`
    from = i + 1
  }
  return out + text.slice(from)
}
