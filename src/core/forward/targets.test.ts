import { describe, expect, it } from 'vitest'
import { forwardSecretAccount } from '../../shared/forwarding'
import { loadTargetSecret, replaceSigningSecret, saveTargetSecret, type TargetSecretStore } from './targets'

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
    expect(await loadTargetSecret(store, 'f1')).toMatchObject({ target: { kind: 'webhook', url: HOOK }, secret: 'new-secret-9876543210' })
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
    expect(await replaceSigningSecret(store, 'f1', 'too-short')).toEqual({ ok: false, problem: 'A signing secret is at least 16 characters.' })
    expect(await replaceSigningSecret(store, 'n1', 'new-secret-9876543210')).toEqual({ ok: false, problem: 'A signing secret is for a JSON webhook only.' })
    expect(await replaceSigningSecret(store, 'gone', 'new-secret-9876543210')).toMatchObject({ ok: false, problem: expect.stringMatching(/not in the key store/) })
    expect(store.entries).toEqual(before)
  })
})
