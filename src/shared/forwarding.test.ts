import { describe, expect, it } from 'vitest'
import { targetKindOf } from './forwarding'

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
  })

  it('names nothing that is no target', () => {
    for (const text of ['', 'hooks.slack.com/services/x', 'ftp://example.com/x', 'mailto:me@example.com', 'not a url']) expect(targetKindOf(text)).toBeNull()
  })
})
