// Calling the bridge from a screen, in one shape: what was fetched (Remote) or what an action
// failed with (Action), as $state.raw, so a screen says what it shows and these say how it is got.
import type { Bridge, IpcError, IpcResult } from '../../shared/ipc'
import { call } from './bridge'

/** Something a screen fetched; the last value stays (as stale) on a failed refetch, and the latest load wins, so a
 *  slow answer to an old request never replaces a newer one. */
export class Remote<T> {
  value = $state.raw<T | null>(null)
  error = $state.raw<IpcError | null>(null)
  readonly #fetch: (b: Bridge) => Promise<IpcResult<T>>
  #latest = 0

  constructor(fetch: (b: Bridge) => Promise<IpcResult<T>>) {
    this.#fetch = fetch
  }

  /** The answer, or undefined when a later load was asked for meanwhile (then nothing is kept). */
  async load(fetch: (b: Bridge) => Promise<IpcResult<T>> = this.#fetch): Promise<IpcResult<T> | undefined> {
    const mine = ++this.#latest
    const result = await call(fetch)
    if (mine !== this.#latest) return undefined
    if (result.ok) {
      this.value = result.value
      this.error = null
    } else {
      this.error = result.error
    }
    return result
  }

  /** A value got another way (a form's saved result). */
  set(value: T): void {
    this.value = value
    this.error = null
  }
}

/** What the user asked for: running while it runs, its failure shown until an attempt succeeds. */
export class Action {
  error = $state.raw<IpcError | null>(null)
  pending = $state(false)

  /** Runs `fetch`; the value on success, undefined on failure (then `error` says why). */
  async run<T>(fetch: (b: Bridge) => Promise<IpcResult<T>>): Promise<{ value: T } | undefined> {
    this.pending = true
    const result = await call(fetch)
    this.pending = false
    if (!result.ok) {
      this.error = result.error
      return undefined
    }
    this.error = null
    return { value: result.value }
  }
}
