// Control characters are written out for every format (as shared/controls.ts does), then its markup neutralised. Text
// is cut before escaping so what is sent fits the format's limit once escaped.
import { escapeUnsafeCharacters } from '../../shared/controls'

/** Over these Discord and Telegram refuse the message, Slack cuts it and ntfy makes it an attachment. */
export const TEXT_LIMITS = {
  discord: { max: 2_000, unit: 'characters' },
  telegram: { max: 4_096, unit: 'characters' },
  slack: { max: 40_000, unit: 'characters' },
  ntfy: { max: 4_096, unit: 'bytes' }
} as const satisfies Record<string, { max: number; unit: 'characters' | 'bytes' }>

export type LimitedFormat = keyof typeof TEXT_LIMITS

/** A text's size in its format's unit: UTF-8 bytes, or UTF-16 code units (never fewer than the characters a service counts). */
export function textSize(format: LimitedFormat, text: string): number {
  return TEXT_LIMITS[format].unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length
}

/** What ends a text that was cut. */
export const ELLIPSIS = '…'

/** `escape(raw)`, or the escape of the longest start of `raw` that fits with an ellipsis. Cut at a code point before
 * escaping, so no escape sequence or surrogate pair is ever split. */
export function escapeWithin(
  raw: string,
  escape: (text: string) => string,
  max: number,
  size: (text: string) => number
): string {
  const whole = escape(raw)
  if (size(whole) <= max) return whole
  // Escaping never shortens a character, so at most `max` code points can fit: only those are tried.
  const points = Array.from(raw.slice(0, 2 * (max + 1))).slice(0, max + 1)
  const fits = (n: number) => size(escape(points.slice(0, n).join(''))) + size(ELLIPSIS) <= max
  let lo = 0
  let hi = points.length - 1
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (fits(mid)) lo = mid
    else hi = mid - 1
  }
  return escape(points.slice(0, lo).join('')) + ELLIPSIS
}

/** Plain text: controls written out; line feeds kept only where asked. */
export function plain(text: string, keepNewlines = false): string {
  return escapeUnsafeCharacters(text, { keepNewlines })
}

/** Slack mrkdwn: &, < and > escaped so no <!channel> or <@user> can be made, and a zero-width space after each
 * mark of * _ ~ ` so no text turns bold, italic, struck or code. */
export function slackText(text: string): string {
  return plain(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[*_~`]/g, (c) => `${c}\u200b`)
}

/** Discord markdown: a backslash before each markup character (mentions are also switched off in the payload). */
export function discordText(text: string): string {
  return plain(text).replace(/[\\*_~`|>#\-[\]()<]/g, (c) => `\\${c}`)
}

/** Telegram's HTML parse mode: the three characters it asks to be escaped. */
export function telegramHtml(text: string): string {
  return plain(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}
