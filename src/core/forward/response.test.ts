import { describe, expect, it } from 'vitest'
import { classifyResponse } from './response'
import { ANSWERS, type Answer } from './test-receivers'

const read = (kind: Parameters<typeof classifyResponse>[0], a: Answer) =>
  classifyResponse(kind, a.status, new Headers(a.headers ?? {}), String(a.body ?? ''), Date.UTC(2026, 0, 1))

describe('classifyResponse, as each service answers', () => {
  it('delivered', () => {
    expect(read('ntfy', ANSWERS.ntfyOk()).kind).toBe('delivered')
    expect(read('slack', ANSWERS.slackOk()).kind).toBe('delivered')
    expect(read('discord', ANSWERS.discordOk()).kind).toBe('delivered')
    expect(read('telegram', ANSWERS.telegramOk()).kind).toBe('delivered')
  })
  it("Telegram's {ok:false}, even with 200, is a refusal with its description", () => {
    expect(read('telegram', ANSWERS.telegramNotOk())).toEqual({ kind: 'refused', reason: "Telegram: Bad Request: can't parse entities" })
    expect(read('telegram', ANSWERS.telegramNoChat())).toMatchObject({ kind: 'refused', reason: expect.stringContaining('chat not found') })
  })
  it('rate limits wait as long as the service says: header, or Discord’s body', () => {
    expect(read('ntfy', ANSWERS.ntfyLimited(30))).toMatchObject({ kind: 'retry', retryAfterMs: 30_000 })
    expect(read('discord', ANSWERS.discordLimited(1.5))).toMatchObject({ kind: 'retry', retryAfterMs: 1500 })
    expect(read('webhook', { status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' } })).toMatchObject({ kind: 'retry', retryAfterMs: 60_000 })
    expect(read('webhook', ANSWERS.serverError())).toEqual({ kind: 'retry', reason: 'HTTP 500: internal error' })
  })
  it('a redirect tries again, never followed: the user is to give the final URL', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      expect(read('slack', ANSWERS.redirect(status, 'https://elsewhere.example/'))).toEqual({ kind: 'retry', reason: `HTTP ${status}: the target redirects; give its final URL.` })
    }
  })
  it('401 and 403 keep their events and try again with backoff (access can come back within the day)', () => {
    expect(read('discord', ANSWERS.discordUnauthorized())).toEqual({ kind: 'retry', reason: 'HTTP 401: {"message": "401: Unauthorized", "code": 0}' })
    expect(read('telegram', ANSWERS.telegramBlocked())).toEqual({ kind: 'retry', reason: expect.stringContaining('bot was blocked by the user') as unknown as string })
    expect(read('webhook', { status: 403, body: 'forbidden' })).toEqual({ kind: 'retry', reason: 'HTTP 403: forbidden' })
  })
  it('a removed webhook (404, 410) and a malformed request (400) are refusals', () => {
    for (const status of [400, 404, 410]) expect(read('webhook', { status, body: 'no' }).kind, String(status)).toBe('refused')
  })
  it("Slack's 404 no_service and 400 invalid_payload are refusals", () => {
    expect(read('slack', ANSWERS.slackGone())).toEqual({ kind: 'refused', reason: 'HTTP 404: no_service' })
    expect(read('slack', ANSWERS.slackBad()).kind).toBe('refused')
  })
})
