// Keys under service `agent-tray`, account = connection id; forwarding secrets under `forwarding.agent-tray`, account
// `forward:<target id>`.
import { isForwardSecretAccount } from '../../shared/forward-target'
import {
  firstLine,
  FORWARDING_KEYCHAIN_SERVICE,
  type ForwardingSecretStore,
  KEYCHAIN_SERVICE,
  KeychainUnavailableError,
  type KeytarLike,
  type SecretStore
} from './types'

function hint(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'is the login keychain unlocked?'
  if (platform === 'win32') return 'is Windows Credential Manager available?'
  return 'is gnome-keyring or KWallet running and unlocked?'
}

export function keychainUnavailable(cause: unknown, secret?: string, platform = process.platform) {
  // No `cause`: the error must never carry anything that could hold the key.
  return new KeychainUnavailableError(`No keychain is reachable (${hint(platform)}): ${firstLine(cause, secret)}`)
}

/** Loads keytar (a native module) on first use, with one clear line when it cannot load. */
export async function loadKeytar(): Promise<KeytarLike> {
  try {
    const loaded = (await import('keytar')) as KeytarLike & { default?: KeytarLike }
    return loaded.default ?? loaded
  } catch (error) {
    throw new KeychainUnavailableError(`The keychain library (keytar) could not load: ${firstLine(error)}`)
  }
}

export function createKeytarSecretStore(keytar?: KeytarLike | (() => Promise<KeytarLike>)): SecretStore {
  let loading: Promise<KeytarLike> | undefined
  const library = (): Promise<KeytarLike> => {
    if (typeof keytar === 'object') return Promise.resolve(keytar)
    loading ??= (keytar ?? loadKeytar)()
    return loading
  }
  /** Runs a keychain call; any failure becomes one line that never holds the key. */
  async function call<T>(run: (k: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    const k = await library()
    try {
      return await run(k)
    } catch (error) {
      throw keychainUnavailable(error, secret)
    }
  }
  return {
    forwarding: forwardingEntries(call),
    backend: 'keychain',
    detail: `Your API key is kept in the system keychain (service "${KEYCHAIN_SERVICE}").`,
    get: (id) => call((k) => k.getPassword(KEYCHAIN_SERVICE, id)),
    set: (id, apiKey) => call((k) => k.setPassword(KEYCHAIN_SERVICE, id, apiKey), apiKey),
    delete: (id) => call((k) => k.deletePassword(KEYCHAIN_SERVICE, id)),
    has: async (id) => (await call((k) => k.getPassword(KEYCHAIN_SERVICE, id))) !== null,
    list: async () =>
      (await call((k) => k.findCredentials(KEYCHAIN_SERVICE)))
        .filter((c) => c.account !== KEYCHAIN_PROBE_ACCOUNT)
        .map((c) => ({ connectionId: c.account, secret: c.password }))
  }
}

type KeychainCall = <T>(run: (k: KeytarLike) => Promise<T>, secret?: string) => Promise<T>

/** First use moves entries an earlier version kept under the API keys' service, so a start that never forwards never
 * lists the keychain. */
function forwardingEntries(call: KeychainCall): ForwardingSecretStore {
  const service = FORWARDING_KEYCHAIN_SERVICE
  let moved: Promise<void> | undefined
  const open = (): Promise<void> =>
    (moved ??= call(async (k) => {
      for (const { account, password } of await k.findCredentials(KEYCHAIN_SERVICE)) {
        if (!isForwardSecretAccount(account)) continue
        // One already in its place is newer (set since): the old one only goes.
        if ((await k.getPassword(service, account)) === null) await k.setPassword(service, account, password)
        await k.deletePassword(KEYCHAIN_SERVICE, account)
      }
    }).catch((error: unknown) => {
      moved = undefined // Tried again on the next use (the keychain may be unlocked by then).
      throw error
    }))
  const opened: KeychainCall = async (run, secret) => {
    await open()
    return call(run, secret)
  }
  return {
    get: (account) => opened((k) => k.getPassword(service, account)),
    set: (account, secret) => opened((k) => k.setPassword(service, account, secret), secret),
    delete: (account) => opened((k) => k.deletePassword(service, account)),
    list: async () =>
      (await opened((k) => k.findCredentials(service))).map((c) => ({ account: c.account, secret: c.password }))
  }
}

/** An account no connection has (ids are generated), asked for only to see that the keychain answers. */
export const KEYCHAIN_PROBE_ACCOUNT = '__agent-tray-probe__'

/** Asks for one empty account: any answer means the keychain answers. Not findCredentials, which loads every key and
 * on macOS may prompt once per item. */
export async function probeKeychain(keytar: KeytarLike, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
  })
  try {
    await Promise.race([keytar.getPassword(KEYCHAIN_SERVICE, KEYCHAIN_PROBE_ACCOUNT), timeout])
  } catch (error) {
    throw keychainUnavailable(error)
  } finally {
    clearTimeout(timer)
  }
}
