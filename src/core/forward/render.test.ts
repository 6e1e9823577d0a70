import { describe, expect, it } from 'vitest'
import {
  discordText,
  ELLIPSIS,
  type LimitedFormat,
  plain,
  slackText,
  telegramHtml,
  TEXT_LIMITS,
  textSize
} from './escape'
import { type ForwardEvent, toForwardEvent } from './event'
import { renderRequest } from './render'
import { SIGNATURE_HEADER, verifySignature } from './sign'
import type { ParsedTarget } from './target-url'
import { agentWaits, forwardEvent, NAMES } from './test-events'

// A task name with a terminal escape sequence (a window title), a bidi override, and each format's markup.
const HOSTILE = '\u001b]0;pwned\u0007<!channel> *bold* _it_ `code` [x](https://evil) @everyone <b>&amp; \u202egnp.exe'
const event = forwardEvent('t1', 'failed', HOSTILE)
const t = (kind: ParsedTarget['kind'], extra: Partial<ParsedTarget> = {}): ParsedTarget => ({
  kind,
  host: 'h',
  url: 'https://h/x',
  ...extra
})

describe('renderRequest', () => {
  it('writes out control characters in every format', () => {
    for (const kind of ['ntfy', 'slack', 'discord', 'telegram', 'webhook'] as const) {
      const strings: string[] = []
      JSON.parse(
        renderRequest(t(kind, { channel: 'c' }), event).body,
        (_k, v: unknown) => (typeof v === 'string' && strings.push(v), v)
      )
      const all = strings.join(' ')
      // eslint-disable-next-line no-control-regex
      expect(all, kind).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
      expect(all, kind).toMatch(/\\{1,2}u001b\\?\]0;pwned\\{1,2}u0007/)
    }
  })

  it('Slack: no mention, link or formatting can be made', () => {
    const { text } = JSON.parse(renderRequest(t('slack'), event).body) as { text: string }
    expect(text).toContain('&lt;!channel&gt;')
    expect(text).toContain('&amp;amp;')
    expect(text).not.toMatch(/\*bold\*/)
    expect(text).toContain('*\u200bbold*\u200b')
    expect(text.startsWith('*Task failed*')).toBe(true)
  })

  it('Discord: markup escaped, mentions off', () => {
    const body = JSON.parse(renderRequest(t('discord'), event).body) as { content: string; allowed_mentions: unknown }
    expect(body.allowed_mentions).toEqual({ parse: [] })
    expect(body.content).toContain('\\*bold\\*')
    expect(body.content).toContain('\\[x\\]\\(https://evil\\)')
    expect(body.content).toContain('\\`code\\`')
  })

  it('Telegram: HTML escaped, parse_mode HTML, to the chat', () => {
    const body = JSON.parse(renderRequest(t('telegram', { channel: '-100' }), event).body) as {
      text: string
      parse_mode: string
      chat_id: string
    }
    expect(body).toMatchObject({ parse_mode: 'HTML', chat_id: '-100' })
    expect(body.text).toContain('&lt;b&gt;&amp;amp;')
    expect(body.text.startsWith('<b>Task failed</b>\n')).toBe(true)
  })

  it('ntfy: JSON to the root with the topic, no service text in a header, high priority for a failure', () => {
    const req = renderRequest(t('ntfy', { channel: 'builds', authorization: 'Basic eA==' }), event)
    const body = JSON.parse(req.body) as Record<string, unknown>
    expect(body).toMatchObject({ topic: 'builds', title: 'Task failed', priority: 4 })
    expect(req.headers.authorization).toBe('Basic eA==')
    expect(Object.values(req.headers).join(' ')).not.toContain('pwned')
  })

  it('webhook: the documented body, Idempotency-Key the event id, a signature a receiver can verify', () => {
    const req = renderRequest(t('webhook'), event, 'shh-secret')
    const body = JSON.parse(req.body) as Record<string, unknown>
    expect(body).toMatchObject({
      version: 1,
      id: event.id,
      event: 'failed',
      account: { id: 'c1', name: 'Work' },
      project: { id: 'p1', name: 'Recipe Box' },
      task: { id: 't1', status: 'failed', cost_usd: 0.57, duration_ms: 240_000 },
      links: { app: 'agent-tray://projects/p1/tasks/t1' }
    })
    expect(req.headers['idempotency-key']).toBe(event.id)
    const sig = req.headers[SIGNATURE_HEADER.toLowerCase()]
    expect(sig).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/)
    expect(verifySignature(req.body, 'shh-secret', sig)).toBe(true)
    expect(verifySignature(req.body, 'other', sig)).toBe(false)
    expect(verifySignature(req.body.replace('failed', 'complete'), 'shh-secret', sig)).toBe(false)
    // Signed when sent: a request rendered an hour ago is stale now.
    const old = renderRequest(t('webhook'), event, 'shh-secret', Date.now() - 3_600_000)
    expect(verifySignature(old.body, 'shh-secret', old.headers[SIGNATURE_HEADER.toLowerCase()])).toBe(false)
    expect(renderRequest(t('webhook'), event).headers[SIGNATURE_HEADER.toLowerCase()]).toBeUndefined()
  })

  it('the same event has the same id on every run; another outcome of the task another id', () => {
    expect(forwardEvent('t1', 'failed').id).toBe(event.id)
    expect(forwardEvent('t1', 'completed').id).not.toBe(event.id)
    expect(event.id).toMatch(/^[0-9a-f]{32}$/)
  })
})

describe('each format within its limit', () => {
  const KINDS = Object.keys(TEXT_LIMITS) as LimitedFormat[]
  const ESCAPE: Record<LimitedFormat, (text: string) => string> = {
    slack: slackText,
    discord: discordText,
    telegram: telegramHtml,
    ntfy: plain
  }
  // Every character any format escapes, a control, a bidi override and one outside the BMP.
  const MARKUP = Array.from('*_~`|>#-[]()<>&"\\\u001b\u202e😀')
  const atMost = (n: number) => Array.from({ length: n }, (_x, i) => MARKUP[i % MARKUP.length]).join('')
  /** What the limit applies to, as sent: the one text (title and text together), or ntfy's title and message. */
  const shown = (kind: LimitedFormat, e: ForwardEvent): { title: string; text: string; whole: string[] } => {
    const body = JSON.parse(renderRequest(t(kind, { channel: 'c' }), e).body) as Record<string, string>
    if (kind === 'ntfy') return { title: body.title!, text: body.message!, whole: [body.message!] }
    const whole = kind === 'discord' ? body.content! : body.text!
    return { title: whole.slice(0, whole.indexOf('\n')), text: whole.slice(whole.indexOf('\n') + 1), whole: [whole] }
  }

  it('a title and a text full of markup, each as long as the limit, are cut to fit it once escaped, and fill it', () => {
    for (const kind of KINDS) {
      const { max } = TEXT_LIMITS[kind]
      const { title, text, whole } = shown(kind, { ...event, title: atMost(max), text: atMost(max) })
      for (const w of whole) {
        expect(textSize(kind, w), kind).toBeLessThanOrEqual(max)
        // No more room than one escaped character (at most 7: Discord's \\u001b) is left.
        expect(textSize(kind, w), kind).toBeGreaterThan(max - 8)
      }
      // The title takes at most half: ntfy's its own field, the others' in their markup.
      expect(textSize(kind, title), kind).toBeLessThanOrEqual(max / 2 + 7)
      expect(title, kind).toMatch(new RegExp(`${ELLIPSIS}(\\*\\*|\\*|</b>)?$`))
      expect(text.endsWith(ELLIPSIS), kind).toBe(true)
      // No surrogate pair was split.
      expect(whole.join(''), kind).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
    }
  })

  it('a text within the limit that escapes to over it is cut between escapes, never inside one', () => {
    for (const kind of KINDS) {
      const { max } = TEXT_LIMITS[kind]
      let cut = 0
      for (const c of ['&', '*', '<', '"', '\\', '\u001b', '😀']) {
        const escaped = ESCAPE[kind](c)
        const raw = c.repeat(Math.floor(max / c.length) - 2)
        const { text, whole } = shown(kind, { ...event, text: raw })
        expect(textSize(kind, whole.join('')), `${kind} ${c}`).toBeLessThanOrEqual(max)
        if (text === ESCAPE[kind](raw)) continue
        const kept = text.slice(0, -ELLIPSIS.length)
        expect(text.endsWith(ELLIPSIS), `${kind} ${c}`).toBe(true)
        expect(kept, `${kind} ${c}`).toBe(escaped.repeat(kept.length / escaped.length))
        cut++
      }
      expect(cut, kind).toBeGreaterThanOrEqual(2)
    }
  })

  it('a message within the limit is sent whole', () => {
    for (const kind of KINDS) expect(shown(kind, event).text, kind).toBe(ESCAPE[kind](event.text))
  })
})

describe('a task waiting for you, in each format', () => {
  const waiting = toForwardEvent(agentWaits('*Approve* <!channel> [x](https://evil)'), NAMES, Date.UTC(2026, 10, 27))!
  const href = 'https://jules.example/session/j1?a=1&b=%7C%3C'

  it('ntfy: high, tagged, a click opens the task', () => {
    const body = JSON.parse(renderRequest(t('ntfy', { channel: 'c' }), waiting).body) as Record<string, unknown>
    expect(body).toMatchObject({ priority: 4, tags: ['raising_hand'], click: href })
    expect(body.title).toBe("Jules needs you: approve the plan for 'Add dark mode'")
  })

  it('Slack, Discord, Telegram: what is asked escaped, then a link to the task that no text can forge', () => {
    const slack = (JSON.parse(renderRequest(t('slack'), waiting).body) as { text: string }).text
    expect(slack).toContain('&lt;!channel&gt;')
    expect(slack.endsWith(`\n<${href.replace('&', '&amp;')}|Open the task>`)).toBe(true)
    const discord = (JSON.parse(renderRequest(t('discord'), waiting).body) as { content: string }).content
    expect(discord).toContain('\\[x\\]\\(https://evil\\)')
    expect(discord.endsWith(`\n<${href}>`)).toBe(true)
    const telegram = (JSON.parse(renderRequest(t('telegram', { channel: 'c' }), waiting).body) as { text: string }).text
    expect(telegram.endsWith(`\n<a href="${href.replace('&', '&amp;')}">Open the task</a>`)).toBe(true)
    // A watched project's task has no page of its own to link.
    expect((JSON.parse(renderRequest(t('slack'), event).body) as { text: string }).text).not.toContain('Open the task')
  })

  it('the webhook says it is a waiting event', () => {
    const req = renderRequest(t('webhook'), waiting)
    expect(req.headers['x-agent-tray-event']).toBe('waiting')
    expect(req.headers['idempotency-key']).toBe(waiting.id)
  })
})
