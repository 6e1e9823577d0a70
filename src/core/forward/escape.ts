// Service text made safe for each target's format. First, for every format, the characters that
// do something other than show themselves (escape sequences, bidi overrides) are written out, as
// everywhere else (shared/controls.ts); then the format's own markup is neutralised.
import { escapeUnsafeCharacters } from '../../shared/controls'

/** Plain text: controls written out; line feeds kept only where asked. */
export function plain(text: string, keepNewlines = false): string {
  return escapeUnsafeCharacters(text, { keepNewlines })
}

/**
 * Slack mrkdwn: &, < and > as Slack asks (so no <!channel>, <@user> or <url|link> can be made),
 * and a zero-width space after each of * _ ~ ` so no run of text turns bold, italic, struck or code.
 */
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
