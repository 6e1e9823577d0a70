import { describe, expect, it } from 'vitest'
import { forwardSecretAccount } from '../../shared/forward-target'
import {
  deleteTargetSecret,
  loadTargetSecret,
  replaceSigningSecret,
  saveTargetSecret,
  storedTargetSecrets,
  type TargetSecretStore
} from './target-secrets'

function memoryStore(): TargetSecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    get: async (account) => entries.get(account) ?? null,
    set: async (account, value) => void entries.set(account, value),
    delete: async (account) => entries.delete(account)
  }
}

const HOOK = 'https://hooks.example.com/in/abc123'

describe('replaceSigningSecret', () => {
  it("replaces a webhook's signing secret under the same target id, its URL kept", async () => {
    const store = memoryStore()
    await saveTargetSecret(store, 'f1', { url: HOOK, secret: 'old-secret-0123456789' })
    expect(await replaceSigningSecret(store, 'f1', '  new-secret-9876543210  ')).toEqual({ ok: true })
    expect(await loadTargetSecret(store, 'f1')).toMatchObject({
      target: { kind: 'webhook', url: HOOK },
      secret: 'new-secret-9876543210'
    })
    expect([...store.entries.keys()]).toEqual([forwardSecretAccount('f1')])
    // A webhook that had no secret gets its first one the same way.
    await saveTargetSecret(store, 'f2', { url: HOOK })
    expect(await replaceSigningSecret(store, 'f2', 'first-secret-0123456')).toEqual({ ok: true })
    expect((await loadTargetSecret(store, 'f2'))?.secret).toBe('first-secret-0123456')
  })

  it('refuses a short secret, a target that is not a JSON webhook, and one whose URL is gone, changing nothing', async () => {
    const store = memoryStore()
    await saveTargetSecret(store, 'f1', { url: HOOK, secret: 'old-secret-0123456789' })
    await saveTargetSecret(store, 'n1', { url: 'ntfys://ntfy.sh/alerts' })
    const before = new Map(store.entries)
    expect(await replaceSigningSecret(store, 'f1', 'too-short')).toEqual({
      ok: false,
      problem: 'A signing secret is at least 16 characters.'
    })
    expect(await replaceSigningSecret(store, 'n1', 'new-secret-9876543210')).toEqual({
      ok: false,
      problem: 'A signing secret is for a JSON webhook only.'
    })
    expect(await replaceSigningSecret(store, 'gone', 'new-secret-9876543210')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not in the key store/)
    })
    expect(store.entries).toEqual(before)
  })
})

describe('a stored entry read back', () => {
  it('the target recognised again, its secret, and every secret to redact', async () => {
    const store = memoryStore()
    await saveTargetSecret(store, 'f1', { url: HOOK, secret: 'old-secret-0123456789' })
    expect(JSON.parse(store.entries.get('forward:f1')!)).toEqual({ url: HOOK, secret: 'old-secret-0123456789' })
    const loaded = await loadTargetSecret(store, 'f1')
    expect(loaded).toEqual({
      target: { kind: 'webhook', host: 'hooks.example.com', url: HOOK },
      secret: 'old-secret-0123456789',
      secrets: expect.arrayContaining([HOOK, 'old-secret-0123456789']) as unknown as string[]
    })
    expect(loaded?.secrets.at(-1)).toBe('old-secret-0123456789')
    await saveTargetSecret(store, 'n1', { url: 'ntfys://ntfy.sh/alerts' })
    const ntfy = await loadTargetSecret(store, 'n1')
    expect(ntfy).not.toHaveProperty('secret')
    expect(ntfy?.secrets).toEqual(expect.arrayContaining(['ntfys://ntfy.sh/alerts', 'ntfy.sh/alerts']))
    expect(ntfy?.secrets).not.toContain('old-secret-0123456789')
  })

  it('absent, unreadable, without a URL or with one not recognised: null', async () => {
    const store = memoryStore()
    expect(await loadTargetSecret(store, 'none')).toBeNull()
    for (const raw of [
      '{not json',
      '{"secret":"old-secret-0123456789"}',
      '{"url":7}',
      '{"url":"ftp://example.com/x"}'
    ]) {
      store.entries.set('forward:x', raw)
      expect(await loadTargetSecret(store, 'x'), raw).toBeNull()
    }
  })

  it('storedTargetSecrets: the URL, its parts and the signing secret; none when unreadable', () => {
    expect(storedTargetSecrets(JSON.stringify({ url: HOOK, secret: 'old-secret-0123456789' }))).toEqual(
      expect.arrayContaining([HOOK, 'old-secret-0123456789'])
    )
    expect(storedTargetSecrets(JSON.stringify({ url: HOOK }))).toContain(HOOK)
    expect(storedTargetSecrets(JSON.stringify({ url: HOOK, secret: 5 }))).not.toContain(5)
    for (const raw of ['{not json', '{"secret":"old-secret-0123456789"}', 'null'])
      expect(storedTargetSecrets(raw), raw).toEqual([])
  })

  it('deleteTargetSecret removes its entry', async () => {
    const store = memoryStore()
    await saveTargetSecret(store, 'f1', { url: HOOK })
    await expect(deleteTargetSecret(store, 'f1')).resolves.toBe(true)
    expect(store.entries.size).toBe(0)
  })

  it('replaceSigningSecret on an entry that cannot be read, or whose URL is not recognised', async () => {
    const store = memoryStore()
    const problem = 'Its URL is not in the key store: remove the target and add it again.'
    for (const raw of ['{not json', '{"url":7}', '{"url":"ftp://example.com/x"}', 'null']) {
      store.entries.set('forward:x', raw)
      expect(await replaceSigningSecret(store, 'x', 'new-secret-9876543210'), raw).toEqual({ ok: false, problem })
      expect(store.entries.get('forward:x')).toBe(raw)
    }
  })
})

describe('the secrets of an entry, exactly', () => {
  it("the URL's secrets, then the signing secret when there is one, and nothing else", async () => {
    const store = memoryStore()
    await saveTargetSecret(store, 'n1', { url: 'ntfys://ntfy.sh/alerts' })
    expect((await loadTargetSecret(store, 'n1'))?.secrets).toEqual([
      'ntfys://ntfy.sh/alerts',
      'ntfy.sh/alerts',
      '"topic":"alerts"'
    ])
    expect(storedTargetSecrets(JSON.stringify({ url: 'ntfys://ntfy.sh/alerts' }))).toEqual([
      'ntfys://ntfy.sh/alerts',
      'ntfy.sh/alerts',
      '"topic":"alerts"'
    ])
    expect(
      storedTargetSecrets(JSON.stringify({ url: 'ntfys://ntfy.sh/alerts', secret: 'old-secret-0123456789' }))
    ).toEqual(['ntfys://ntfy.sh/alerts', 'ntfy.sh/alerts', '"topic":"alerts"', 'old-secret-0123456789'])
  })
})
