// Each kind's request exactly, for a plain event: URL, headers and body as each service reads them
// (apprise.test.ts compares ntfy's and the webhook's with what Apprise sends, outside the mutation run).
import { describe, expect, it } from 'vitest'
import { type ForwardEvent, toForwardEvent } from './event'
import { renderRequest, USER_AGENT } from './render'
import { signBody } from './sign'
import type { ParsedTarget } from './target-url'
import { agentWaits, forwardEvent, NAMES } from './test-events'
import { webhookBody } from './webhook-body'

const e = forwardEvent('t1', 'failed')
const text = "Recipe Box: 'Add a contact form' failed after 4 m 00 s · $0.57"
const t = (kind: ParsedTarget['kind'], extra: Partial<ParsedTarget> = {}): ParsedTarget => ({
  kind,
  host: 'h',
  url: 'https://h.example/x',
  ...extra
})
const jsonHeaders = { 'content-type': 'application/json', 'user-agent': USER_AGENT }
const body = (req: { body: string }) => JSON.parse(req.body) as unknown

describe('renderRequest, exactly', () => {
  it('ntfy: to the root, the topic in the body, Basic auth only when given', () => {
    const req = renderRequest(t('ntfy', { url: 'https://n.example/', channel: 'builds' }), e)
    expect(req.url).toBe('https://n.example/')
    expect(req.headers).toEqual(jsonHeaders)
    expect(body(req)).toEqual({ topic: 'builds', title: 'Task failed', message: text, priority: 4, tags: ['x'] })
    expect(renderRequest(t('ntfy', { channel: 'b', authorization: 'Basic eA==' }), e).headers).toEqual({
      ...jsonHeaders,
      authorization: 'Basic eA=='
    })
  })

  it("ntfy's priority and tag by kind: a failure or a budget reached is high", () => {
    const of = (event: ForwardEvent) =>
      body(renderRequest(t('ntfy', { channel: 'b' }), event)) as { priority: number; tags: string[] }
    expect(of(forwardEvent('t1', 'completed'))).toMatchObject({ priority: 3, tags: ['white_check_mark'] })
    expect(of(forwardEvent('t1', 'cancelled'))).toMatchObject({ priority: 3, tags: ['information_source'] })
    const budget = (level: 'near' | 'over'): ForwardEvent => ({
      ...e,
      kind: 'budget',
      task: null,
      budget: { id: 'b', period: 'month', periodKey: '2026-11', level, spentUsd: 1, budgetUsd: 1 }
    })
    expect(of(budget('over'))).toMatchObject({ priority: 4, tags: ['information_source'] })
    expect(of(budget('near'))).toMatchObject({ priority: 3 })
    expect(of({ ...e, kind: 'budget', budget: null })).toMatchObject({ priority: 3 })
    // An agent account's per-unit budget at its limit is as urgent as a USD one.
    const unit = { id: 'u', unit: 'ACU', period: 'month', periodKey: '2026-11', spent: 2, limit: 2 }
    expect(
      of({ ...e, kind: 'budget', task: null, budget: null, unitBudget: { ...unit, level: 'over' } })
    ).toMatchObject({
      priority: 4
    })
    expect(
      of({ ...e, kind: 'budget', task: null, budget: null, unitBudget: { ...unit, level: 'near' } })
    ).toMatchObject({
      priority: 3
    })
  })

  it('Slack, Discord and Telegram: the title in their bold, then the text', () => {
    const slack = renderRequest(t('slack'), e)
    expect(slack).toEqual({
      url: 'https://h.example/x',
      headers: jsonHeaders,
      body: JSON.stringify({ text: `*Task failed*\n${text}` })
    })
    const discord = renderRequest(t('discord'), e)
    expect(discord).toEqual({
      url: 'https://h.example/x',
      headers: jsonHeaders,
      body: JSON.stringify({ content: `**Task failed**\n${text}`, allowed_mentions: { parse: [] } })
    })
    const telegram = renderRequest(t('telegram', { channel: '-100' }), e)
    expect(telegram.headers).toEqual(jsonHeaders)
    expect(body(telegram)).toEqual({
      chat_id: '-100',
      text: `<b>Task failed</b>\n${text}`,
      parse_mode: 'HTML',
      disable_web_page_preview: true
    })
  })

  it('the webhook: its body, its headers, and a signature dated when it is sent', () => {
    const plainReq = renderRequest(t('webhook'), e, undefined, 5_000)
    expect(plainReq).toEqual({
      url: 'https://h.example/x',
      headers: { ...jsonHeaders, 'idempotency-key': e.id, 'x-agent-tray-event': 'failed' },
      body: JSON.stringify(webhookBody(e))
    })
    const signed = renderRequest(t('webhook'), e, 'a-signing-secret-0123', 5_000)
    expect(signed.headers['x-agent-tray-signature']).toBe(signBody(plainReq.body, 'a-signing-secret-0123', 5_000))
    expect(renderRequest(t('webhook'), e, '', 5_000).headers).not.toHaveProperty('x-agent-tray-signature')
  })
})

describe('webhookBody', () => {
  it('version 1, every field, text written out', () => {
    expect(webhookBody({ ...e, title: 'T\u001b', text: 'x\ny' })).toEqual({
      version: 1,
      id: e.id,
      event: 'failed',
      occurred_at: '2026-11-27T09:05:00.000Z',
      title: 'T\\u001b',
      text: 'x\\u000ay',
      account: { id: 'c1', name: 'Work' },
      project: { id: 'p1', name: 'Recipe Box' },
      task: {
        id: 't1',
        name: 'Add a contact form',
        status: 'failed',
        cost_usd: 0.57,
        duration_ms: 240_000,
        url: null
      },
      service: null,
      waiting: null,
      budget: null,
      unit_budget: null,
      links: { app: 'agent-tray://projects/p1/tasks/t1' }
    })
  })

  it("another service's task waiting for you: its service, what it waits for, its page; text written out", () => {
    const waiting = toForwardEvent(agentWaits('Plan:\n1. \u001b[2Jtoggle'), NAMES, Date.UTC(2026, 10, 27, 9, 5))!
    expect(webhookBody(waiting)).toEqual({
      version: 1,
      id: waiting.id,
      event: 'waiting',
      occurred_at: '2026-11-27T09:05:00.000Z',
      title: "Jules needs you: approve the plan for 'Add dark mode'",
      text: 'Work: Plan: 1. \\u001b[2Jtoggle',
      account: { id: 'c1', name: 'Work' },
      project: { id: 'octo/shop', name: 'Recipe Box' },
      task: {
        id: 'j1',
        name: 'Add dark mode',
        status: 'waiting',
        cost_usd: null,
        duration_ms: null,
        url: 'https://jules.example/session/j1?a=1&b=%7C%3C'
      },
      service: { kind: 'jules', name: 'Jules' },
      waiting: { kind: 'plan_approval', text: 'Plan:\n1. \\u001b[2Jtoggle' },
      budget: null,
      unit_budget: null,
      links: { app: 'agent-tray://projects' }
    })
  })

  it('a budget event: its budget, no task; names written out', () => {
    const budget: ForwardEvent = {
      ...e,
      kind: 'budget',
      account: { id: 'c1', name: 'W\u202e' },
      project: null,
      task: null,
      budget: { id: 'b1', period: 'day', periodKey: '2026-11-27', level: 'near', spentUsd: 8, budgetUsd: 10 }
    }
    expect(webhookBody(budget)).toMatchObject({
      event: 'budget',
      account: { id: 'c1', name: 'W\\u202e' },
      project: null,
      task: null,
      budget: { id: 'b1', period: 'day', period_key: '2026-11-27', level: 'near', spent_usd: 8, budget_usd: 10 }
    })
    expect(webhookBody({ ...e, project: { id: 'p', name: 'a\u0007' } }).project).toEqual({ id: 'p', name: 'a\\u0007' })
    expect(webhookBody({ ...e, task: { ...e.task!, name: 'n\u0000' } }).task?.name).toBe('n\\u0000')
  })
})
