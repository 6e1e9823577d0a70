import { describe, expect, it } from 'vitest'
import { classifyResponse } from './response'
import { type Answer, ANSWERS } from './test-receivers'

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
    expect(read('telegram', ANSWERS.telegramNotOk())).toEqual({
      kind: 'refused',
      reason: "Telegram: Bad Request: can't parse entities"
    })
    expect(read('telegram', ANSWERS.telegramNoChat())).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('chat not found')
    })
  })
  it('rate limits wait as long as the service says: header, or Discord’s body', () => {
    expect(read('ntfy', ANSWERS.ntfyLimited(30))).toMatchObject({ kind: 'retry', retryAfterMs: 30_000 })
    expect(read('discord', ANSWERS.discordLimited(1.5))).toMatchObject({ kind: 'retry', retryAfterMs: 1500 })
    expect(read('webhook', { status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' } })).toMatchObject(
      { kind: 'retry', retryAfterMs: 60_000 }
    )
    expect(read('webhook', ANSWERS.serverError())).toEqual({ kind: 'retry', reason: 'HTTP 500: internal error' })
  })
  it('a redirect tries again, never followed: the user is to give the final URL', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      expect(read('slack', ANSWERS.redirect(status, 'https://elsewhere.example/'))).toEqual({
        kind: 'retry',
        reason: `HTTP ${status}: the target redirects; give its final URL.`
      })
    }
  })
  it('401 and 403 keep their events and try again with backoff (access can come back within the day)', () => {
    expect(read('discord', ANSWERS.discordUnauthorized())).toEqual({
      kind: 'retry',
      reason: 'HTTP 401: {"message": "401: Unauthorized", "code": 0}'
    })
    expect(read('telegram', ANSWERS.telegramBlocked())).toEqual({
      kind: 'retry',
      reason: expect.stringContaining('bot was blocked by the user') as unknown as string
    })
    expect(read('webhook', { status: 403, body: 'forbidden' })).toEqual({
      kind: 'retry',
      reason: 'HTTP 403: forbidden'
    })
  })
  it('a removed webhook (404, 410) and a malformed request (400) are refusals', () => {
    for (const status of [400, 404, 410])
      expect(read('webhook', { status, body: 'no' }).kind, String(status)).toBe('refused')
  })
  it("Slack's 404 no_service and 400 invalid_payload are refusals", () => {
    expect(read('slack', ANSWERS.slackGone())).toEqual({ kind: 'refused', reason: 'HTTP 404: no_service' })
    expect(read('slack', ANSWERS.slackBad()).kind).toBe('refused')
  })
})

describe('classifyResponse at its edges', () => {
  const none = new Headers()
  const at = (status: number, body = '', kind: Parameters<typeof classifyResponse>[0] = 'webhook', headers = none) =>
    classifyResponse(kind, status, headers, body, Date.UTC(2026, 0, 1))

  it('2xx is delivered; 199 and 300 are not', () => {
    expect(at(200)).toEqual({ kind: 'delivered' })
    expect(at(299)).toEqual({ kind: 'delivered' })
    expect(at(199)).toEqual({ kind: 'refused', reason: 'HTTP 199' })
    expect(at(300).kind).toBe('retry')
    expect(at(399)).toEqual({ kind: 'retry', reason: 'HTTP 399: the target redirects; give its final URL.' })
  })

  it('408, 429 and 5xx try again; 400, 499 and other 4xx are refusals', () => {
    expect(at(408, 'slow')).toEqual({ kind: 'retry', reason: 'HTTP 408: slow' })
    expect(at(429)).toEqual({ kind: 'retry', reason: 'HTTP 429' })
    expect(at(500)).toEqual({ kind: 'retry', reason: 'HTTP 500' })
    expect(at(400)).toEqual({ kind: 'refused', reason: 'HTTP 400' })
    expect(at(402).kind).toBe('refused')
    expect(at(499).kind).toBe('refused')
  })

  it('the reason: the body on one line, at most 200 characters', () => {
    expect(at(404, '  not\n\n found \t here ')).toEqual({ kind: 'refused', reason: 'HTTP 404: not found here' })
    expect(at(404, ' \n ')).toEqual({ kind: 'refused', reason: 'HTTP 404' })
    expect(at(404, 'y'.repeat(500))).toEqual({ kind: 'refused', reason: `HTTP 404: ${'y'.repeat(200)}` })
  })

  it("the wait: the header first, else the body's retry_after (Telegram's under parameters), in whole ms", () => {
    const header = new Headers({ 'retry-after': '3' })
    expect(at(429, '{"retry_after":9}', 'discord', header)).toMatchObject({ retryAfterMs: 3_000 })
    expect(at(429, '{"ok":false,"parameters":{"retry_after":7}}', 'telegram')).toMatchObject({ retryAfterMs: 7_000 })
    expect(at(429, '{"retry_after":0.0004}', 'discord')).toMatchObject({ retryAfterMs: 1 })
    expect(at(503, '{"retry_after":0}')).toMatchObject({ retryAfterMs: 0 })
    for (const body of [
      '{"retry_after":-1}',
      '{"retry_after":"5"}',
      '{"retry_after":null}',
      'not json',
      '{}',
      'null'
    ]) {
      expect(at(503, body), body).not.toHaveProperty('retryAfterMs')
    }
  })

  it("Telegram's 2xx: ok:true only; its description cut, or said to be not ok", () => {
    expect(at(200, '{"ok":true}', 'telegram')).toEqual({ kind: 'delivered' })
    expect(at(200, '{"ok":"true"}', 'telegram')).toEqual({ kind: 'refused', reason: 'Telegram: not ok' })
    expect(at(200, '{"ok":false,"description":7}', 'telegram')).toEqual({ kind: 'refused', reason: 'Telegram: not ok' })
    expect(at(200, `{"ok":false,"description":"${'d'.repeat(300)}"}`, 'telegram')).toEqual({
      kind: 'refused',
      reason: `Telegram: ${'d'.repeat(200)}`
    })
    expect(at(200, 'ok', 'telegram')).toEqual({
      kind: 'refused',
      reason: 'Telegram answered something other than JSON.'
    })
    // Only Telegram's answer is read so.
    expect(at(200, 'ok', 'slack')).toEqual({ kind: 'delivered' })
  })
})
