import { describe, expect, it } from 'vitest'
import { forwardSecretAccount, isForwardSecretAccount, targetKindOf } from './forward-target'

describe('targetKindOf', () => {
  it('names a pasted URL by its scheme and host alone', () => {
    expect(targetKindOf('ntfys://ntfy.sh/topic')).toBe('ntfy')
    expect(targetKindOf('ntfy://localhost:8080/topic')).toBe('ntfy')
    expect(targetKindOf('  TGRAM://123:abc/456 ')).toBe('telegram')
    expect(targetKindOf('https://hooks.slack.com/services/T0/B0/x')).toBe('slack')
    expect(targetKindOf('https://Discord.com/api/webhooks/1/x')).toBe('discord')
    expect(targetKindOf('https://discordapp.com/api/webhooks/1/x')).toBe('discord')
    // Another host, even one that only ends like Slack's, is a JSON webhook.
    expect(targetKindOf('https://hooks.slack.com.example.net/services/T0/B0/x')).toBe('webhook')
    expect(targetKindOf('http://127.0.0.1:9000/in')).toBe('webhook')
    // Only a URL that starts with Telegram's scheme is Telegram.
    expect(targetKindOf('https://hooks.example.net/tgram:1/2')).toBe('webhook')
  })

  it('names nothing that is no target', () => {
    for (const text of ['', 'hooks.slack.com/services/x', 'ftp://example.com/x', 'mailto:me@example.com', 'not a url'])
      expect(targetKindOf(text)).toBeNull()
  })
})

describe("a target's account in the key store", () => {
  it('is apart from every connection id, and told from them by its prefix', () => {
    expect(forwardSecretAccount('t1')).toBe('forward:t1')
    expect(isForwardSecretAccount(forwardSecretAccount('0b1c2d3e-0000-4000-8000-000000000000'))).toBe(true)
    for (const account of ['0b1c2d3e-0000-4000-8000-000000000000', 'conn-forward:', 'forwarding'])
      expect(isForwardSecretAccount(account), account).toBe(false)
  })
})
