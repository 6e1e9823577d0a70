// Characters that do something other than show themselves when printed, and the one way text from
// the service is made safe to show: each is written out as \uXXXX. They are the C0 controls (ESC
// starts a terminal's escape sequences: window titles, OSC 8 links, OSC 52 clipboard writes,
// screen clears; BEL rings), DEL, the C1 controls (U+009B is a CSI by itself), the line and
// paragraph separators, and the bidirectional embeddings, overrides and isolates, which reorder
// what is shown around them (a name can then read as something else).

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

/**
 * `text` with every character that isUnsafeToShow written out as \uXXXX, except line feeds when
 * `keepNewlines` (output that is already made of lines). One pass.
 */
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
