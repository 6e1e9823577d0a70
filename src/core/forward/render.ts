// One request per target kind; the generic webhook gets the documented body (webhook-body.ts).
import {
  discordText,
  escapeWithin,
  type LimitedFormat,
  plain,
  slackText,
  telegramHtml,
  TEXT_LIMITS,
  textSize
} from './escape'
import { type ForwardEvent, sendableUrl } from './event'
import { SIGNATURE_HEADER, signBody } from './sign'
import type { ParsedTarget } from './target-url'
import { webhookBody } from './webhook-body'

export interface ForwardRequest {
  url: string
  headers: Record<string, string>
  body: string
}

export const USER_AGENT = 'agent-tray-forward/1'

const json = (url: string, body: unknown, extra: Record<string, string> = {}): ForwardRequest => ({
  url,
  headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...extra },
  body: JSON.stringify(body)
})

/** ntfy's priority: a failure, a task waiting for you or a budget limit is 'high' (4), the rest default (3). */
function ntfyPriority(e: ForwardEvent): number {
  const over = e.budget?.level === 'over' || e.unitBudget?.level === 'over'
  return e.kind === 'failed' || e.kind === 'waiting' || (e.kind === 'budget' && over) ? 4 : 3
}

const NTFY_TAGS: Partial<Record<ForwardEvent['kind'], string>> = {
  failed: 'x',
  completed: 'white_check_mark',
  waiting: 'raising_hand'
}

/** What a link to the task's page is called (the address itself is sendableUrl's: nothing in it to escape). */
const OPEN_TASK = 'Open the task'

/** The title (ours, short but for a name) gets at most half the format's room, so the text always has room too. */
function fitted(
  format: LimitedFormat,
  escape: (text: string) => string,
  e: ForwardEvent,
  frame: (title: string, text: string) => string
): string {
  const size = (text: string) => textSize(format, text)
  const room = TEXT_LIMITS[format].max - size(frame('', ''))
  const title = escapeWithin(e.title, escape, Math.floor(room / 2), size)
  return frame(title, escapeWithin(e.text, escape, room - size(title), size))
}

const ntfySize = (text: string) => textSize('ntfy', text)

/** `nowMs` dates the webhook's signature: each attempt is signed afresh, so a retry is never stale. */
export function renderRequest(
  target: ParsedTarget,
  event: ForwardEvent,
  secret?: string,
  nowMs: number = Date.now()
): ForwardRequest {
  // Made sendable when the event was made (event.ts); checked again, as the outbox's file may be older.
  const link = sendableUrl(event.task?.url ?? null)
  switch (target.kind) {
    case 'ntfy': {
      // Published as JSON to the server's root (ntfy's JSON publishing), so no header carries the
      // service's text; markdown stays off, so the text shows as written.
      const body: Record<string, unknown> = {
        topic: target.channel,
        // ntfy's limit is the message's own; the title keeps to half of it, as in the other formats.
        title: escapeWithin(event.title, plain, TEXT_LIMITS.ntfy.max / 2, ntfySize),
        message: escapeWithin(event.text, plain, TEXT_LIMITS.ntfy.max, ntfySize),
        priority: ntfyPriority(event),
        tags: [NTFY_TAGS[event.kind] ?? 'information_source']
      }
      if (link !== null) body.click = link
      return json(target.url, body, target.authorization ? { authorization: target.authorization } : {})
    }
    case 'slack': {
      const after = link === null ? '' : `\n<${link.replaceAll('&', '&amp;')}|${OPEN_TASK}>`
      return json(target.url, {
        text: fitted('slack', slackText, event, (title, text) => `*${title}*\n${text}${after}`)
      })
    }
    case 'discord': {
      // In angle brackets: a link without a preview.
      const after = link === null ? '' : `\n<${link}>`
      return json(target.url, {
        content: fitted('discord', discordText, event, (title, text) => `**${title}**\n${text}${after}`),
        allowed_mentions: { parse: [] }
      })
    }
    case 'telegram': {
      const after = link === null ? '' : `\n<a href="${link.replaceAll('&', '&amp;')}">${OPEN_TASK}</a>`
      return json(target.url, {
        chat_id: target.channel,
        text: fitted('telegram', telegramHtml, event, (title, text) => `<b>${title}</b>\n${text}${after}`),
        parse_mode: 'HTML',
        disable_web_page_preview: true
      })
    }
    case 'webhook': {
      const body = JSON.stringify(webhookBody(event))
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'idempotency-key': event.id,
        'x-agent-tray-event': event.kind
      }
      if (secret) headers[SIGNATURE_HEADER.toLowerCase()] = signBody(body, secret, nowMs)
      return { url: target.url, headers, body }
    }
  }
}
