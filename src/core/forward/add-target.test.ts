import { describe, expect, it } from 'vitest'
import { planTarget } from './add-target'

const HOOK = 'https://hooks.example.com/in/abc123'

describe('planTarget', () => {
  it('refuses a signing secret shorter than 16 characters, for the window and the command alike', () => {
    expect(planTarget([], { url: HOOK, secret: 'fifteen-chars-5' }, 'id1')).toMatchObject({
      ok: false,
      field: 'secret',
      problem: 'A signing secret is at least 16 characters.'
    })
    expect(planTarget([], { url: HOOK, secret: 'sixteen-chars-16' }, 'id1')).toMatchObject({
      ok: true,
      stored: { url: HOOK, secret: 'sixteen-chars-16' }
    })
  })

  it('keeps a host label that carries an id out of config.json and the name, as redaction keeps it out of logs', () => {
    const url = 'https://abcd1234.webhook.office.com/webhookb2/in'
    expect(planTarget([], { url }, 'id1')).toMatchObject({
      ok: true,
      target: { host: '….webhook.office.com', name: 'JSON webhook ….webhook.office.com' },
      stored: { url }
    })
    expect(planTarget([], { url: 'https://hooks.example.com:8443/in' }, 'id2')).toMatchObject({
      ok: true,
      target: { host: 'hooks.example.com:8443' }
    })
    expect(planTarget([], { url: 'http://127.0.0.1:9000/in' }, 'id3')).toMatchObject({
      ok: true,
      target: { host: '127.0.0.1:9000' }
    })
  })
})
