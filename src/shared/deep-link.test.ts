import { describe, expect, it } from 'vitest'
import { deepLinkUrl, parseDeepLink } from './deep-link'

describe('deep links', () => {
  it('builds and reads back a project link and a task link', () => {
    expect(deepLinkUrl('p-1')).toBe('agent-tray://projects/p-1')
    expect(deepLinkUrl('p-1', 't:2')).toBe('agent-tray://projects/p-1/tasks/t:2')
    expect(parseDeepLink(deepLinkUrl('p-1'))).toEqual({ ok: true, link: { kind: 'project', projectId: 'p-1' } })
    expect(parseDeepLink(deepLinkUrl('p-1', 't:2'))).toEqual({ ok: true, link: { kind: 'task', projectId: 'p-1', taskId: 't:2' } })
  })

  it('takes the projects list, which opens the window', () => {
    expect(deepLinkUrl()).toBe('agent-tray://projects')
    expect(parseDeepLink('agent-tray://projects')).toEqual({ ok: true, link: { kind: 'projects' } })
    expect(parseDeepLink('agent-tray://projects/')).toEqual({ ok: true, link: { kind: 'projects' } })
  })

  it('takes a UUID, a trailing slash and an upper-case scheme', () => {
    const id = '3f2c8a4e-1b2d-4c5e-8f9a-0b1c2d3e4f5a'
    expect(parseDeepLink(`agent-tray://projects/${id}/`)).toEqual({ ok: true, link: { kind: 'project', projectId: id } })
    expect(parseDeepLink(`AGENT-TRAY://Projects/${id}`)).toEqual({ ok: true, link: { kind: 'project', projectId: id } })
  })

  it.each([
    ['another scheme', 'https://projects/p1'],
    ['a look-alike scheme', 'agent-trayx://projects/p1'],
    ['no slashes', 'agent-tray:projects/p1'],
    ['another host', 'agent-tray://settings'],
    ['an empty project id', 'agent-tray://projects//'],
    ['a query', 'agent-tray://projects/p1?x=1'],
    ['a fragment', 'agent-tray://projects/p1#x'],
    ['an escape', 'agent-tray://projects/p%2F1'],
    ['user info', 'agent-tray://me@projects/p1'],
    ['a path climb', 'agent-tray://projects/../etc'],
    ['a dot id', 'agent-tray://projects/.'],
    ['a backslash', 'agent-tray://projects/p1\\tasks\\t1'],
    ['an empty task id', 'agent-tray://projects/p1/tasks/'],
    ['an unknown segment', 'agent-tray://projects/p1/steps/s1'],
    ['extra segments', 'agent-tray://projects/p1/tasks/t1/x'],
    ['a double slash', 'agent-tray://projects//p1'],
    ['a control character', 'agent-tray://projects/p1\u0007'],
    ['a space', 'agent-tray://projects/p 1'],
    ['an overlong link', `agent-tray://projects/${'a'.repeat(600)}`]
  ])('refuses %s', (_what, text) => {
    const parsed = parseDeepLink(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.problem).toMatch(/^(is|names|has|may) /)
  })

  it('refuses to build a link from an id the id rule refuses', () => {
    expect(() => deepLinkUrl('a/b')).toThrow(/id in a link/)
    expect(() => deepLinkUrl('p1', '')).toThrow(/id in a link/)
  })
})
