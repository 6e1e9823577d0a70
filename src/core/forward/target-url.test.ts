import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../secrets/redact'
import { defaultTargetName, type ParsedTarget, parseTarget, targetSecrets } from './target-url'

const SLACK = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'
const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFG-123'
const TGRAM = 'tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890'

describe('parseTarget', () => {
  it('recognises each kind and where it is sent', () => {
    expect(parseTarget('ntfys://ntfy.example.com/builds')).toEqual({
      ok: true,
      target: { kind: 'ntfy', host: 'ntfy.example.com', url: 'https://ntfy.example.com/', channel: 'builds' }
    })
    expect(parseTarget('ntfy://localhost:8080/builds')).toMatchObject({
      ok: true,
      target: { kind: 'ntfy', url: 'http://localhost:8080/', channel: 'builds' }
    })
    expect(parseTarget('ntfy://builds')).toMatchObject({
      ok: true,
      target: { kind: 'ntfy', host: 'ntfy.sh', url: 'https://ntfy.sh/', channel: 'builds' }
    })
    expect(parseTarget(SLACK)).toMatchObject({
      ok: true,
      target: { kind: 'slack', host: 'hooks.slack.com', url: SLACK }
    })
    expect(parseTarget(DISCORD)).toMatchObject({ ok: true, target: { kind: 'discord', host: 'discord.com' } })
    expect(parseTarget(TGRAM)).toMatchObject({
      ok: true,
      target: {
        kind: 'telegram',
        host: 'api.telegram.org',
        url: 'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
        channel: '-1001234567890'
      }
    })
    expect(parseTarget('https://example.com/hooks/agent?x=1')).toMatchObject({
      ok: true,
      target: { kind: 'webhook', host: 'example.com' }
    })
    expect(parseTarget('http://127.0.0.1:9000/in')).toMatchObject({
      ok: true,
      target: { kind: 'webhook', host: '127.0.0.1:9000' }
    })
  })

  it('ntfy with a user and password sends Basic auth', () => {
    const check = parseTarget('ntfys://me:s3cret-pass@ntfy.example.com/builds')
    expect(check).toMatchObject({
      ok: true,
      target: { authorization: `Basic ${Buffer.from('me:s3cret-pass').toString('base64')}` }
    })
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
      if (!check.ok)
        for (const part of ['pass-5ecret', 'localhost', 'example', '192.168', '8080'])
          expect(check.problem).not.toContain(part)
    }
    expect(parseTarget('ntfy://user:pass@localhost:8080/alerts')).toMatchObject({
      ok: true,
      target: { host: 'localhost:8080', channel: 'alerts' }
    })
  })

  it('refuses malformed targets of each kind', () => {
    for (const bad of [
      '',
      'tgram://nope/1',
      'https://hooks.slack.com/other',
      'https://discord.com/api/webhooks/x',
      'ftp://x/y',
      'ntfys://h/a/b',
      'https://a b',
      'mailto:x@y'
    ])
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

/** A line as the log or the command would show it, with the target's secrets taken out. */
const redacted = (url: string, text: string): string => redactSecrets(text, targetSecrets(url))

describe('targetSecrets: every part that carries the target, and nothing else', () => {
  it('query values, short or long, with their names (?token=, ?key=, any)', () => {
    const url = 'https://hooks.example.com/in?token=abc123&key=Zx9&sig=0123456789abcdef0123'
    expect(redacted(url, 'GET /in?token=abc123&key=Zx9 refused')).toBe('GET /in?[redacted]&[redacted] refused')
    expect(redacted(url, 'bad signature 0123456789abcdef0123')).toBe('bad signature [redacted]')
    // The same names with other values, and the bare values in prose, are not this target's.
    expect(redacted(url, 'token=other, key=abc')).toBe('token=other, key=abc')
    expect(redacted('https://h.example.com/in?k=a%2Fb+c', 'sent k=a%2Fb+c and k=a/b c')).toBe(
      'sent [redacted] and [redacted]'
    )
  })

  it('a path token shorter than 16 characters, as the path is echoed', () => {
    const url = 'https://hooks.example.com/hook/abc123def'
    expect(redacted(url, 'Cannot POST /hook/abc123def')).toBe('Cannot POST [redacted]')
    expect(redacted(url, `sent to ${url}`)).toBe('sent to [redacted]')
    // A long token alone is known wherever it stands; the words around it stay.
    expect(
      redacted('https://hooks.example.com/hooks/T0kenPart-8d1f0c2b9e7a', 'no hook at /hooks/T0kenPart-8d1f0c2b9e7a')
    ).toBe('no hook at /hooks/[redacted]')
    // Slack's ids after /services/ are short: each is known in its path.
    expect(redacted(SLACK, 'channel /B00000000 of /T00000000 gone')).toBe('channel [redacted] of [redacted] gone')
  })

  it('a host that carries an id, and not a plain one', () => {
    const url = 'https://abcd1234.webhook.office.com/webhookb2/in'
    expect(redacted(url, 'connect ECONNREFUSED abcd1234.webhook.office.com:443')).toBe(
      'connect ECONNREFUSED [redacted]:443'
    )
    expect(targetSecrets('https://hooks.zapier.com/hooks/catch/1/')).not.toContain('hooks.zapier.com')
    expect(targetSecrets('http://127.0.0.1:9000/in/x1')).not.toContain('127.0.0.1')
  })

  it("an ntfy user name and password, in the URL's text", () => {
    const url = 'ntfys://alice:pw-7x9q@ntfy.example.com/builds'
    expect(redacted(url, 'as ntfys://alice@ntfy.example.com, alice@ntfy.example.com or //alice:x')).toBe(
      'as ntfys://[redacted], [redacted] or [redacted]x'
    )
    expect(redacted(url, 'denied: pw-7x9q')).toBe('denied: [redacted]')
    expect(redacted(url, 'alice went home')).toBe('alice went home')
  })

  it('an ntfy user name and password from the parsed target alone (all the sender has: its URL is the server root)', () => {
    const parsed = (parseTarget('ntfys://alice:pw-7x9q-long@ntfy.example.com/builds') as { target: ParsedTarget })
      .target
    const secrets = targetSecrets(parsed.url, parsed)
    expect(redactSecrets('401 for alice@ntfy.example.com with pw-7x9q-long', secrets)).toBe(
      '401 for [redacted] with [redacted]'
    )
  })

  it('a broken %-escape in an ntfy URL is refused, not thrown, and not repeated', () => {
    const check = parseTarget('ntfy://us%zz:pw@localhost:8080/t')
    expect(check).toEqual({
      ok: false,
      problem: 'An ntfy target has a broken %-escape in its topic, user name or password.'
    })
  })

  it('an ntfy topic in its URL or its JSON, never as a word in a sentence', () => {
    for (const url of ['ntfy://alerts', 'ntfys://ntfy.sh/alerts']) {
      expect(redacted(url, '3 alerts fired; see the alerts page')).toBe('3 alerts fired; see the alerts page')
      expect(redacted(url, 'published to https://ntfy.sh/alerts')).toBe('published to https://[redacted]')
      expect(redacted(url, 'body {"topic":"alerts","title":"x"}')).toBe('body {[redacted],"title":"x"}')
    }
    // The send address is ntfy.sh's root: not this target's, so not taken out.
    expect(redacted('ntfy://alerts', 'see https://ntfy.sh/docs')).toBe('see https://ntfy.sh/docs')
    expect(redacted('ntfys://ntfy.sh/private-topic-123', 'topic private-topic-123')).toBe('topic [redacted]')
  })
})
