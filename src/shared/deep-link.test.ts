import { describe, expect, it } from 'vitest'
import { deepLinkUrl, parseDeepLink } from './deep-link'

describe('deep links', () => {
  it('builds and reads back a project link and a task link', () => {
    expect(deepLinkUrl('p-1')).toBe('agent-tray://projects/p-1')
    expect(deepLinkUrl('p-1', 't:2')).toBe('agent-tray://projects/p-1/tasks/t:2')
    expect(parseDeepLink(deepLinkUrl('p-1'))).toEqual({ ok: true, link: { kind: 'project', projectId: 'p-1' } })
    expect(parseDeepLink(deepLinkUrl('p-1', 't:2'))).toEqual({
      ok: true,
      link: { kind: 'task', projectId: 'p-1', taskId: 't:2' }
    })
  })

  it('takes the projects list, which opens the window', () => {
    expect(deepLinkUrl()).toBe('agent-tray://projects')
    expect(parseDeepLink('agent-tray://projects')).toEqual({ ok: true, link: { kind: 'projects' } })
    expect(parseDeepLink('agent-tray://projects/')).toEqual({ ok: true, link: { kind: 'projects' } })
  })

  it('takes a UUID, a trailing slash and an upper-case scheme', () => {
    const id = '3f2c8a4e-1b2d-4c5e-8f9a-0b1c2d3e4f5a'
    expect(parseDeepLink(`agent-tray://projects/${id}/`)).toEqual({
      ok: true,
      link: { kind: 'project', projectId: id }
    })
    expect(parseDeepLink(`AGENT-TRAY://Projects/${id}`)).toEqual({ ok: true, link: { kind: 'project', projectId: id } })
  })

  const scheme = 'is not an agent-tray:// link'
  const escapes = 'may not carry a query, fragment, escapes or user info'
  const neither = 'is neither agent-tray://projects/ID nor agent-tray://projects/ID/tasks/ID'
  it.each([
    ['another scheme', 'https://projects/p1', scheme],
    ['a look-alike scheme', 'agent-trayx://projects/p1', scheme],
    ['no slashes', 'agent-tray:projects/p1', scheme],
    ['another host', 'agent-tray://settings', 'names no project (agent-tray://projects/ID)'],
    ['an empty project id', 'agent-tray://projects//', 'has a project id that must not be empty'],
    ['a query', 'agent-tray://projects/p1?x=1', escapes],
    ['a fragment', 'agent-tray://projects/p1#x', escapes],
    ['an escape', 'agent-tray://projects/p%2F1', escapes],
    ['user info', 'agent-tray://me@projects/p1', escapes],
    [
      'a path climb',
      'agent-tray://projects/../etc',
      'has a project id that may contain only letters, digits and . _ : - (not starting with .)'
    ],
    [
      'a dot id',
      'agent-tray://projects/.',
      'has a project id that may contain only letters, digits and . _ : - (not starting with .)'
    ],
    ['a backslash', 'agent-tray://projects/p1\\tasks\\t1', escapes],
    ['no task id', 'agent-tray://projects/p1/tasks/', neither],
    ['an empty task id', 'agent-tray://projects/p1/tasks//', 'has a task id that must not be empty'],
    [
      'a task id the id rule refuses',
      'agent-tray://projects/p1/tasks/.t1',
      'has a task id that may contain only letters, digits and . _ : - (not starting with .)'
    ],
    ['an unknown segment', 'agent-tray://projects/p1/steps/s1', neither],
    ['extra segments', 'agent-tray://projects/p1/tasks/t1/x', neither],
    ['a double slash', 'agent-tray://projects//p1', 'has a project id that must not be empty'],
    [
      'a control character',
      'agent-tray://projects/p1\u0007',
      'has a project id that must not contain control characters'
    ],
    [
      'a space',
      'agent-tray://projects/p 1',
      'has a project id that may contain only letters, digits and . _ : - (not starting with .)'
    ],
    // Refused unread, before any other rule: 512 characters is more than any link of ours.
    ['an overlong link', `agent-tray://projects/${'a'.repeat(600)}`, 'is too long to be a link of ours'],
    ['a link of 513 characters', `https://${'a'.repeat(505)}`, 'is too long to be a link of ours']
  ])('refuses %s, saying why', (_what, text, problem) => {
    expect(parseDeepLink(text)).toEqual({ ok: false, problem })
  })

  it('reads a link of 512 characters (longer than any of ours) by its rules', () => {
    const text = `agent-tray://projects/${'a'.repeat(512 - 'agent-tray://projects/'.length)}`
    expect(text).toHaveLength(512)
    expect(parseDeepLink(text)).toEqual({ ok: false, problem: 'has a project id that must be at most 200 characters' })
  })

  it('refuses to build a link from an id the id rule refuses', () => {
    expect(() => deepLinkUrl('a/b')).toThrow(/id in a link/)
    expect(() => deepLinkUrl('p1', '')).toThrow(/id in a link/)
  })
})
