// parseTarget's and targetSecrets' rules at their edges: each refusal, each kind's exact shape,
// and the exact list of secrets each kind of URL gives redaction.
import { describe, expect, it } from 'vitest'
import { MAX_BASE_URL_LENGTH } from '../../shared/base-url'
import { defaultTargetName, type ParsedTarget, parseTarget, targetSecrets } from './target-url'

const problem = (url: string): string => {
  const check = parseTarget(url)
  if (check.ok) throw new Error(`accepted ${url}`)
  return check.problem
}
const target = (url: string): ParsedTarget => {
  const check = parseTarget(url)
  if (!check.ok) throw new Error(check.problem)
  return check.target
}

describe('parseTarget refuses', () => {
  it('nothing, too long, spaces and controls', () => {
    expect(problem('  ')).toBe('Paste the target URL, such as ntfys://ntfy.sh/my-topic or a Slack webhook URL.')
    expect(problem(7 as unknown as string)).toMatch(/^Paste the target URL/)
    const long = `https://example.com/${'a'.repeat(MAX_BASE_URL_LENGTH)}`
    expect(problem(long)).toBe(`A target URL must be at most ${MAX_BASE_URL_LENGTH} characters.`)
    expect(parseTarget(`https://example.com/${'a'.repeat(MAX_BASE_URL_LENGTH - 20)}`).ok).toBe(true)
    for (const bad of [
      'https://example.com/a\u0000b',
      'https://example.com/a\u007fb',
      'https://example.com/a\tb',
      'https://example.com/a\u00a0b'
    ]) {
      expect(problem(bad), JSON.stringify(bad)).toBe('A target URL must not contain spaces or control characters.')
    }
  })

  it('a Telegram URL not as BotFather gives its token', () => {
    const msg = 'A Telegram target is tgram://BOT_TOKEN/CHAT_ID (the token as BotFather gives it).'
    for (const bad of [
      'tgram://12:AAAAAAAAAAAA/1',
      'tgram://123:AAAAAAAAA/1',
      'tgram://123:AAAAAAAAAA/x1',
      'tgram://123:AAAAAAAAAA/@abc',
      'tgram://123:AAAAAAAAAA/1/2',
      'tgram://123:AAAAAAAAAA',
      'xtgram://123:AAAAAAAAAA/1'
    ]) {
      if (bad.startsWith('x')) expect(parseTarget(bad).ok).toBe(false)
      else expect(problem(bad), bad).toBe(msg)
    }
    expect(target('tgram://123:AAAAAAAAAA/@abcd/')).toEqual({
      kind: 'telegram',
      host: 'api.telegram.org',
      url: 'https://api.telegram.org/bot123:AAAAAAAAAA/sendMessage',
      channel: '@abcd'
    })
  })

  it('what is no URL of a known kind', () => {
    for (const bad of ['ftp://example.com/x', 'example.com/hook', 'https://']) {
      expect(problem(bad), bad).toBe('A target must be a URL: ntfy://, ntfys://, tgram://, or an https webhook URL.')
    }
  })

  it('a webhook with a user, a password or a fragment; plain http elsewhere', () => {
    expect(problem('https://me@example.com/hook')).toBe('A webhook URL must not carry a user name or password.')
    expect(problem('https://:pw@example.com/hook')).toBe('A webhook URL must not carry a user name or password.')
    expect(problem('https://example.com/hook#x')).toBe('A webhook URL must not have a fragment (#).')
    expect(problem('http://example.com/hook')).toMatch(/^The target must use https/)
    expect(problem('http://hooks.slack.com/services/T0/B0/x')).toMatch(/^The target must use https/)
  })

  it("Slack's and Discord's paths exactly", () => {
    expect(problem('https://hooks.slack.com/services/t0/B0/x')).toBe(
      'A Slack target is its incoming-webhook URL: https://hooks.slack.com/services/T…/B…/….'
    )
    expect(problem('https://hooks.slack.com/services/T0/B0/x/y')).toMatch(/^A Slack target/)
    expect(target('https://hooks.slack.com/services/T0/B0/x/')).toEqual({
      kind: 'slack',
      host: 'hooks.slack.com',
      url: 'https://hooks.slack.com/services/T0/B0/x/'
    })
    expect(problem('https://discord.com/api/webhooks/x1/tok')).toBe(
      'A Discord target is its webhook URL: https://discord.com/api/webhooks/ID/TOKEN.'
    )
    expect(problem('https://discord.com/api/webhooks/1/tok/more')).toMatch(/^A Discord target/)
    expect(target('https://discord.com/api/webhooks/1/tok_-A/')).toEqual({
      kind: 'discord',
      host: 'discord.com',
      url: 'https://discord.com/api/webhooks/1/tok_-A/'
    })
  })

  it('an ntfy topic of 1 to 64 letters, digits, - or _, and one only', () => {
    expect(problem(`ntfys://h.example/${'a'.repeat(65)}`)).toBe('An ntfy topic is 1 to 64 letters, digits, - or _.')
    expect(problem('ntfys://h.example/a.b')).toMatch(/^An ntfy topic/)
    expect(problem('ntfys://h.example/a%20b')).toMatch(/^An ntfy topic/)
    expect(target(`ntfys://h.example/${'a'.repeat(64)}`).channel).toBe('a'.repeat(64))
    expect(target('ntfys://h.example/a%2Db').channel).toBe('a-b')
    expect(problem('ntfys://h.example/a/b')).toBe('An ntfy target is ntfy://host/topic: one topic, no further path.')
    expect(problem('ntfy://h.example/topic')).toBe(
      'The target must use https: plain http would send its token in clear text, and is allowed only to this machine (localhost, 127.0.0.1, [::1]). Use ntfys:// for a remote ntfy server.'
    )
  })
})

describe('parseTarget recognises', () => {
  it('a webhook: its host lower-cased, a loopback one with its port', () => {
    expect(target('https://EXAMPLE.com:8443/In')).toEqual({
      kind: 'webhook',
      host: 'example.com:8443',
      url: 'https://example.com:8443/In'
    })
    expect(target('http://localhost:9000/in')).toEqual({
      kind: 'webhook',
      host: 'localhost:9000',
      url: 'http://localhost:9000/in'
    })
    expect(target('https://[::1]:9000/in').host).toBe('[::1]:9000')
  })

  it('ntfy: https for ntfys:// and ntfy://topic, http to this machine; a user alone is Basic auth with an empty password', () => {
    expect(target('ntfys://n.example:8443/t1')).toEqual({
      kind: 'ntfy',
      host: 'n.example:8443',
      url: 'https://n.example:8443/',
      channel: 't1'
    })
    expect(target('ntfy://t1')).toEqual({ kind: 'ntfy', host: 'ntfy.sh', url: 'https://ntfy.sh/', channel: 't1' })
    expect(target('ntfys://me@n.example/t1').authorization).toBe(`Basic ${Buffer.from('me:').toString('base64')}`)
    expect(target('ntfys://m%40e:p%3Aw@n.example/t1').authorization).toBe(
      `Basic ${Buffer.from('m@e:p:w').toString('base64')}`
    )
    expect(target('ntfys://n.example/t1')).not.toHaveProperty('authorization')
  })

  it('names by kind and host', () => {
    expect(defaultTargetName(target('https://hooks.slack.com/services/T0/B0/x'))).toBe('Slack hooks.slack.com')
    expect(defaultTargetName({ kind: 'webhook', host: 'example.com' })).toBe('JSON webhook example.com')
    expect(defaultTargetName({ kind: 'telegram', host: 'api.telegram.org' })).toBe('Telegram api.telegram.org')
  })
})

describe('targetSecrets, exactly', () => {
  it('Discord: the URL, its id and its token', () => {
    const url = 'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFG-123'
    expect(targetSecrets(url)).toEqual([url, '123456789012345678', 'abcdefghijklmnopqrstuvwxyz_ABCDEFG-123'])
    // A short id is known only with its slash, as the path shows it.
    expect(targetSecrets('https://discord.com/api/webhooks/12345/tok12')).toEqual([
      'https://discord.com/api/webhooks/12345/tok12',
      '/12345',
      '/tok12'
    ])
  })

  it("Telegram: the tgram:// URL, the API URL and the bot's token", () => {
    expect(targetSecrets(' tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890 ')).toEqual([
      'tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890',
      'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
      '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'
    ])
  })

  it('a webhook: a long path token alone, else the path whole; a query value with its name, or alone when long', () => {
    expect(targetSecrets('https://hooks.example.com/in/abc123')).toEqual([
      'https://hooks.example.com/in/abc123',
      '/in/abc123'
    ])
    expect(targetSecrets('https://hooks.example.com/in/abc123/')).toEqual([
      'https://hooks.example.com/in/abc123/',
      '/in/abc123'
    ])
    expect(targetSecrets('https://hooks.example.com/in/0123456789abcdefgh')).toEqual([
      'https://hooks.example.com/in/0123456789abcdefgh',
      '0123456789abcdefgh'
    ])
    expect(targetSecrets('https://hooks.example.com/a?t=0123456789abcdef01')).toEqual([
      'https://hooks.example.com/a?t=0123456789abcdef01',
      '0123456789abcdef01'
    ])
    expect(targetSecrets('https://hooks.example.com/?k=a%2Fb')).toEqual([
      'https://hooks.example.com/?k=a%2Fb',
      'k=a%2Fb',
      'k=a/b'
    ])
    // A value that cannot be decoded is known as written.
    expect(targetSecrets('https://hooks.example.com/?q=%E0%A4%A')).toEqual([
      'https://hooks.example.com/?q=%E0%A4%A',
      'q=%E0%A4%A'
    ])
    // A long value written encoded is known both ways.
    expect(targetSecrets('https://hooks.example.com/?t=0123456789abcde%2F')).toEqual([
      'https://hooks.example.com/?t=0123456789abcde%2F',
      '0123456789abcde/',
      '0123456789abcde%2F'
    ])
  })

  it('a host with an id: a digit or a long label before the domain; never an address', () => {
    expect(targetSecrets('https://a1.b.example.com/x')).toEqual(['https://a1.b.example.com/x', 'a1.b.example.com'])
    expect(targetSecrets('https://abcdefghijklmnop.example.com/x')).toEqual([
      'https://abcdefghijklmnop.example.com/x',
      'abcdefghijklmnop.example.com'
    ])
    expect(targetSecrets('https://abcdefghijklmno.example.com/x')).toEqual(['https://abcdefghijklmno.example.com/x'])
    expect(targetSecrets('https://hooks.example1.com/x')).toEqual(['https://hooks.example1.com/x'])
    expect(targetSecrets('https://[2001:db8::1]/x/y1')).toEqual(['https://[2001:db8::1]/x/y1', '/x/y1'])
    expect(targetSecrets('https://10.0.0.1/x/y1')).toEqual(['https://10.0.0.1/x/y1', '/x/y1'])
  })

  it('ntfy: the topic in its URL and JSON, the user in its URL text, the password, the Basic credentials, a host with an id', () => {
    expect(targetSecrets('ntfys://u:pass-word@n1.example.com/topic-123')).toEqual([
      'ntfys://u:pass-word@n1.example.com/topic-123',
      'n1.example.com/topic-123',
      '"topic":"topic-123"',
      '//u:',
      '//u@',
      'u@n1.example.com',
      'pass-word',
      Buffer.from('u:pass-word').toString('base64'),
      'n1.example.com'
    ])
    expect(targetSecrets('ntfy://localhost:8080/alerts')).toEqual([
      'ntfy://localhost:8080/alerts',
      'localhost:8080/alerts',
      '"topic":"alerts"'
    ])
    expect(targetSecrets('ntfys://ntfy.sh/0123456789abcdefXY')).toEqual([
      'ntfys://ntfy.sh/0123456789abcdefXY',
      '0123456789abcdefXY'
    ])
  })

  it('a URL not recognised: itself only; a parsed target given is used as it is', () => {
    expect(targetSecrets('ftp://example.com/0123456789abcdefXY')).toEqual(['ftp://example.com/0123456789abcdefXY'])
    expect(targetSecrets('anything-at-all', { kind: 'webhook', host: 'h', url: 'https://h.example/p/q1' })).toEqual([
      'anything-at-all',
      'https://h.example/p/q1',
      '/p/q1'
    ])
  })
})
