import { describe, expect, it } from 'vitest'
import { defaultTargetName, parseTarget, targetSecrets } from './target'

const SLACK = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'
const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFG-123'
const TGRAM = 'tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890'

describe('parseTarget', () => {
  it('recognises each kind and where it is sent', () => {
    expect(parseTarget('ntfys://ntfy.example.com/builds')).toEqual({ ok: true, target: { kind: 'ntfy', host: 'ntfy.example.com', url: 'https://ntfy.example.com/', channel: 'builds' } })
    expect(parseTarget('ntfy://localhost:8080/builds')).toMatchObject({ ok: true, target: { kind: 'ntfy', url: 'http://localhost:8080/', channel: 'builds' } })
    expect(parseTarget('ntfy://builds')).toMatchObject({ ok: true, target: { kind: 'ntfy', host: 'ntfy.sh', url: 'https://ntfy.sh/', channel: 'builds' } })
    expect(parseTarget(SLACK)).toMatchObject({ ok: true, target: { kind: 'slack', host: 'hooks.slack.com', url: SLACK } })
    expect(parseTarget(DISCORD)).toMatchObject({ ok: true, target: { kind: 'discord', host: 'discord.com' } })
    expect(parseTarget(TGRAM)).toMatchObject({
      ok: true,
      target: { kind: 'telegram', host: 'api.telegram.org', url: 'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage', channel: '-1001234567890' }
    })
    expect(parseTarget('https://example.com/hooks/agent?x=1')).toMatchObject({ ok: true, target: { kind: 'webhook', host: 'example.com' } })
    expect(parseTarget('http://127.0.0.1:9000/in')).toMatchObject({ ok: true, target: { kind: 'webhook', host: '127.0.0.1:9000' } })
  })

  it('ntfy with a user and password sends Basic auth', () => {
    const check = parseTarget('ntfys://me:s3cret-pass@ntfy.example.com/builds')
    expect(check).toMatchObject({ ok: true, target: { authorization: `Basic ${Buffer.from('me:s3cret-pass').toString('base64')}` } })
  })

  it('refuses plain http to another machine, as the base URL rule does, and never repeats the URL', () => {
    for (const url of ['http://example.com/hook?token=SECRETSECRET', 'ntfy://ntfy.example.com/SECRETSECRET']) {
      const check = parseTarget(url)
      expect(check.ok).toBe(false)
      if (!check.ok) {
        expect(check.problem).toMatch(/https/)
        expect(check.problem).not.toContain('SECRETSECRET')
      }
    }
  })

  it('ntfy://topic refuses a port, a user or password, and a topic that reads as a server, without repeating the URL', () => {
    // Read as a topic, these would publish to ntfy.sh, the credentials with them.
    const cases: [string, RegExp][] = [
      ['ntfy://user:pass-5ecret@localhost:8080', /user name or password/],
      ['ntfys://user@alerts', /user name or password/],
      ['ntfy://alerts:8080', /no port/],
      ['ntfy://localhost', /reads as a server/],
      ['ntfys://ntfy.example.com', /reads as a server/],
      ['ntfy://192.168.1.20/', /reads as a server/],
      ['ntfy://[::1]', /reads as a server/]
    ]
    for (const [url, problem] of cases) {
      const check = parseTarget(url)
      expect(check, url).toMatchObject({ ok: false, problem: expect.stringMatching(problem) })
      if (!check.ok) for (const part of ['pass-5ecret', 'localhost', 'example', '192.168', '8080']) expect(check.problem).not.toContain(part)
    }
    expect(parseTarget('ntfy://user:pass@localhost:8080/alerts')).toMatchObject({ ok: true, target: { host: 'localhost:8080', channel: 'alerts' } })
  })

  it('refuses malformed targets of each kind', () => {
    for (const bad of ['', 'tgram://nope/1', 'https://hooks.slack.com/other', 'https://discord.com/api/webhooks/x', 'ftp://x/y', 'ntfys://h/a/b', 'https://a b', 'mailto:x@y'])
      expect(parseTarget(bad).ok).toBe(false)
  })

  it('knows every token-bearing part as a secret, and the default name has none', () => {
    const secrets = targetSecrets(TGRAM)
    expect(secrets).toContain('123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw')
    expect(targetSecrets(SLACK)).toContain('XXXXXXXXXXXXXXXXXXXXXXXX')
    expect(targetSecrets('ntfys://ntfy.sh/private-topic-123')).toContain('private-topic-123')
    const parsed = parseTarget('ntfys://ntfy.sh/private-topic-123')
    if (!parsed.ok) throw new Error(parsed.problem)
    expect(defaultTargetName(parsed.target)).toBe('ntfy ntfy.sh')
  })
})
