// targetSecrets' boundaries (a part of exactly 16 characters, a path ending in slashes, an encoded
// long value) and a parsed target handed in whose URLs do not parse: no throw, its own parts only.
import { describe, expect, it } from 'vitest'
import { parseTarget, targetSecrets } from './target-url'

describe('targetSecrets at its boundaries', () => {
  it('a path part of exactly 16 characters is known alone, not the path whole', () => {
    expect(targetSecrets('https://h.example/in/0123456789abcdef')).toEqual([
      'https://h.example/in/0123456789abcdef',
      '0123456789abcdef'
    ])
  })

  it('a path known whole without its trailing slashes', () => {
    expect(targetSecrets('https://h.example/in/abc123//')).toEqual(['https://h.example/in/abc123//', '/in/abc123'])
  })

  it('a query value of 16 characters as written is known as written, even when it reads shorter', () => {
    expect(targetSecrets('https://h.example/?t=abcdefghijklm%2F')).toEqual([
      'https://h.example/?t=abcdefghijklm%2F',
      't=abcdefghijklm%2F',
      't=abcdefghijklm/',
      'abcdefghijklm%2F'
    ])
  })

  it('a target handed in whose URLs do not parse: no throw', () => {
    const ntfy = { kind: 'ntfy' as const, host: 'ntfy.sh', url: 'not a url', channel: 'alerts' }
    expect(targetSecrets('not a url either', ntfy)).toEqual(['not a url either', 'ntfy.sh/alerts', '"topic":"alerts"'])
    expect(targetSecrets('x y z', { kind: 'telegram', host: 'h', url: 'nope' })).toEqual(['x y z', 'nope'])
    expect(targetSecrets('x y z', { kind: 'slack', host: 'h', url: 'nope' })).toEqual(['x y z', 'nope'])
  })
})

describe('parseTarget, the exact refusals of ntfy://topic and the anchored paths', () => {
  const server = 'For your own server write ntfys://host/topic, or ntfy://host:port/topic on this machine.'
  const problem = (url: string) => {
    const c = parseTarget(url)
    return c.ok ? 'accepted' : c.problem
  }

  it('each refusal says what to write instead', () => {
    expect(problem('ntfys://user@alerts')).toBe(
      `ntfy://topic is a topic on ntfy.sh: a user name or password goes with a server and its topic. ${server}`
    )
    expect(problem('ntfys://:pw@alerts')).toBe(
      `ntfy://topic is a topic on ntfy.sh: a user name or password goes with a server and its topic. ${server}`
    )
    expect(problem('ntfy://alerts:8080')).toBe(`ntfy://topic is a topic on ntfy.sh and takes no port. ${server}`)
    expect(problem('ntfy://LocalHost')).toBe(
      `This reads as a server with no topic; ntfy://topic is a topic on ntfy.sh. ${server}`
    )
  })

  it("Slack's and Discord's paths from their start", () => {
    expect(problem('https://hooks.slack.com/x/services/T0/B0/abc')).toMatch(/^A Slack target/)
    expect(problem('https://discord.com/x/api/webhooks/1/tok')).toMatch(/^A Discord target/)
  })
})
