// Which store keeps the key when the keychain does not answer (choose.ts), in this process: a
// keychain that fails is a keytar whose calls reject (libsecret binds to one D-Bus per process, so
// a real unreachable keychain is choose.test.ts's child process), and Electron's safeStorage is the
// fake of test-safe-storage.ts (Electron cannot run here).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { chooseSecretStore, type ChooseSecretStoreOptions } from './choose'
import { fakeSafeStorage } from './test-safe-storage'
import type { CiphertextStore, KeytarLike } from './types'

function ciphertexts(entries: Record<string, string> = {}): CiphertextStore & { entries: Record<string, string> } {
  return {
    entries,
    ids: async () => Object.keys(entries),
    get: async (id) => entries[id] ?? null,
    set: async (id, c) => void (entries[id] = c),
    delete: async (id) => (id in entries ? delete entries[id] : false)
  }
}

const noBus = (): KeytarLike => {
  const fail = () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY.\nmore detail'))
  return { getPassword: fail, setPassword: fail, deletePassword: fail, findCredentials: fail }
}

const choose = (over: Partial<ChooseSecretStoreOptions>) =>
  chooseSecretStore({
    loadKeytar: async () => noBus(),
    allowBasicText: false,
    ciphertexts: ciphertexts(),
    forwardingCiphertexts: ciphertexts(),
    probeTimeoutMs: 5_000,
    ...over
  })

describe('choosing where the key is kept when no keychain answers', () => {
  it("keeps it with safeStorage's own backend, saying why the keychain was passed over", async () => {
    const store = await choose({ safeStorage: fakeSafeStorage('gnome_libsecret') })
    expect(store.backend).toBe('safe-storage')
    expect(store.detail).toMatch(
      /^No keychain is reachable \(.*\): Cannot autolaunch D-Bus without X11 \$DISPLAY\. Your API key is encrypted with Electron's safeStorage \(gnome_libsecret\) and kept in the settings file\.$/
    )
    // Without a backend name (macOS, Windows), none is said.
    expect((await choose({ safeStorage: fakeSafeStorage(undefined) })).detail).toMatch(
      /Electron's safeStorage and kept/
    )
  })

  it('says so when the keychain library cannot load at all', async () => {
    const store = await choose({
      loadKeytar: () => Promise.reject(new Error('keytar.node: cannot open shared object file'))
    })
    expect(store.backend).toBe('session-only')
    expect(store.detail).toBe(
      "keytar.node: cannot open shared object file. Electron's safeStorage is not available here, so your API key is kept for this session only and will be asked for again after a restart."
    )
  })

  it('keeps it for this session only under basic_text, unless the user allowed basic_text', async () => {
    const refused = await choose({ safeStorage: fakeSafeStorage('basic_text') })
    expect(refused.backend).toBe('session-only')
    expect(refused.detail).toMatch(
      /\. The only other store here is Electron's basic_text, which uses a fixed password, so your API key is kept for this session only\. Allow basic_text in Settings/
    )
    const allowed = await choose({ safeStorage: fakeSafeStorage('basic_text'), allowBasicText: true })
    expect(allowed.backend).toBe('safe-storage')
    expect(allowed.detail).toMatch(
      /\. As you allowed in Settings, your API key is kept in the settings file under basic_text/
    )
  })

  it('keeps it for this session only when safeStorage has no encryption, or fails, saying which', async () => {
    const none = await choose({ safeStorage: fakeSafeStorage('gnome_libsecret', false) })
    expect(none.backend).toBe('session-only')
    expect(none.detail).toMatch(
      /\. Electron's safeStorage has no encryption available, so your API key is kept for this session only/
    )
    const broken = fakeSafeStorage('gnome_libsecret')
    broken.isAsyncEncryptionAvailable = () => Promise.reject(new Error('no secret service'))
    expect((await choose({ safeStorage: broken })).detail).toMatch(
      /\. Electron's safeStorage failed: no secret service, so your API key is kept for this session only/
    )
  })

  it('uses the keychain when it answers, and moves keys left as ciphertexts into it', async () => {
    const kept = new Map<string, string>()
    const keytar: KeytarLike = {
      getPassword: async (_s, a) => kept.get(a) ?? null,
      setPassword: async (_s, a, p) => void kept.set(a, p),
      deletePassword: async (_s, a) => kept.delete(a),
      findCredentials: async () => [...kept].map(([account, password]) => ({ account, password }))
    }
    const safe = fakeSafeStorage('gnome_libsecret')
    const left = ciphertexts({ c1: (await safe.encryptStringAsync('sk-left-behind-1234')).toString('base64') })
    const store = await choose({ loadKeytar: async () => keytar, safeStorage: safe, ciphertexts: left })
    expect(store.backend).toBe('keychain')
    expect(await store.get('c1')).toBe('sk-left-behind-1234')
    expect(left.entries).toEqual({})
  })

  it("moves targets' ciphertexts into the keychain's forwarding service, never among the keys", async () => {
    const kept = new Map<string, string>()
    const keytar: KeytarLike = {
      getPassword: async (s, a) => kept.get(`${s} ${a}`) ?? null,
      setPassword: async (s, a, p) => void kept.set(`${s} ${a}`, p),
      deletePassword: async (s, a) => kept.delete(`${s} ${a}`),
      findCredentials: async (s) =>
        [...kept]
          .filter(([k]) => k.startsWith(`${s} `))
          .map(([k, password]) => ({ account: k.slice(s.length + 1), password }))
    }
    const safe = fakeSafeStorage('gnome_libsecret')
    const sealed = async (text: string) => (await safe.encryptStringAsync(text)).toString('base64')
    // forward:t1 as an earlier version left it, among the keys' ciphertexts; forward:t2 in its own map.
    const left = ciphertexts({
      c1: await sealed('sk-left-behind-1234'),
      'forward:t1': await sealed('{"url":"https://a.example/1"}')
    })
    const leftForwarding = ciphertexts({ 'forward:t2': await sealed('{"url":"https://a.example/2"}') })
    const store = await choose({
      loadKeytar: async () => keytar,
      safeStorage: safe,
      ciphertexts: left,
      forwardingCiphertexts: leftForwarding
    })
    expect([...kept.keys()].sort()).toEqual([
      'agent-tray c1',
      'forwarding.agent-tray forward:t1',
      'forwarding.agent-tray forward:t2'
    ])
    expect(await store.forwarding.get('forward:t1')).toBe('{"url":"https://a.example/1"}')
    expect(await store.get('forward:t1')).toBeNull()
    expect([left.entries, leftForwarding.entries]).toEqual([{}, {}])
  })

  it('leaves the ciphertexts where safeStorage itself is chosen', async () => {
    const safe = fakeSafeStorage('gnome_libsecret')
    const left = ciphertexts({ c1: (await safe.encryptStringAsync('sk-left-behind-1234')).toString('base64') })
    const store = await choose({ safeStorage: safe, ciphertexts: left })
    expect(store.backend).toBe('safe-storage')
    expect(Object.keys(left.entries)).toEqual(['c1'])
    expect(await store.get('c1')).toBe('sk-left-behind-1234')
  })

  describe('a keychain slow to answer (an unlock prompt may be showing)', () => {
    afterEach(() => void vi.useRealTimers())

    /** A keychain whose probe waits until the test answers it. */
    const slowKeychain = () => {
      let asking = (): void => {}
      const asked = new Promise<void>((resolve) => (asking = resolve))
      let answer = (): void => {}
      const keytar: KeytarLike = {
        getPassword: () => {
          asking()
          return new Promise<null>((resolve) => (answer = () => resolve(null)))
        },
        setPassword: async () => {},
        deletePassword: async () => false,
        findCredentials: async () => []
      }
      return { keytar, asked, answer: () => answer() }
    }

    it('is waited for up to 30 s by default', async () => {
      vi.useFakeTimers()
      const slow = slowKeychain()
      const chosen = chooseSecretStore({
        loadKeytar: async () => slow.keytar,
        allowBasicText: false,
        ciphertexts: ciphertexts(),
        forwardingCiphertexts: ciphertexts()
      })
      await slow.asked
      await vi.advanceTimersByTimeAsync(29_999)
      slow.answer()
      expect((await chosen).backend).toBe('keychain')
    })

    it('is passed over after 30 s, saying so', async () => {
      vi.useFakeTimers()
      const slow = slowKeychain()
      const chosen = chooseSecretStore({
        loadKeytar: async () => slow.keytar,
        allowBasicText: false,
        ciphertexts: ciphertexts(),
        forwardingCiphertexts: ciphertexts()
      })
      await slow.asked
      await vi.advanceTimersByTimeAsync(30_000)
      const store = await chosen
      expect(store.backend).toBe('session-only')
      expect(store.detail).toMatch(/^No keychain is reachable \(.*\): no answer within 30 s\. /)
    })
  })
})
