// A JSON webhook added without a signing secret gets one made for it (shown once by the caller),
// so every webhook's requests can be verified; other kinds never get one.
import { describe, expect, it } from 'vitest'
import { planTarget } from './add-target'

const plan = (url: string, secret?: string) => planTarget([], { url, secret }, 'id-1')

describe('planTarget: a generated signing secret', () => {
  it('gives a JSON webhook with no secret a random one (32 bytes, base64url), stored with its URL and returned once', () => {
    const a = plan('https://hooks.example.com/in/abc')
    const b = plan('https://hooks.example.com/in/abc')
    if (!a.ok || !b.ok) throw new Error('refused')
    expect(a.generatedSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a.stored).toEqual({ url: 'https://hooks.example.com/in/abc', secret: a.generatedSecret })
    expect(b.generatedSecret).not.toBe(a.generatedSecret)
  })

  it('keeps a given secret and makes none; other kinds get none', () => {
    const given = plan('https://hooks.example.com/in/abc', 'my-own-secret-123')
    if (!given.ok) throw new Error('refused')
    expect(given.generatedSecret).toBeUndefined()
    expect(given.stored.secret).toBe('my-own-secret-123')
    for (const url of [
      'ntfys://ntfy.example/topic-1',
      'https://hooks.slack.com/services/T0/B0/xyz',
      'tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890'
    ]) {
      const p = plan(url)
      if (!p.ok) throw new Error(`refused ${url}`)
      expect(p.generatedSecret, url).toBeUndefined()
      expect(p.stored, url).toEqual({ url })
    }
  })
})
