// Settings' fields save themselves on change: one status line says whether it was saved, and each
// refused field keeps its message (here, so it outlives a section that is folded away).
import type { IpcError, SettingsView } from '../../shared/ipc'
import { app } from './app.svelte'

export class SettingsSave {
  status = $state('')
  failed = $state(false)
  failure = $state.raw<IpcError | null>(null)
  errors = $state<Record<string, string>>({})
  #timer: ReturnType<typeof setTimeout> | undefined

  #show(text: string, linger: boolean): void {
    clearTimeout(this.#timer)
    this.status = text
    this.failed = linger
    if (!linger) this.#timer = setTimeout(() => (this.status = ''), 2500)
  }

  async update(patch: Partial<SettingsView>, message: string): Promise<void> {
    const error = await app.updateSettings(patch)
    this.failure = error
    if (error) this.#show('Not saved: see the message above.', true)
    else this.#show(`Saved. ${message}`, false)
  }

  /** A field's message, or null once it is right again. */
  setError(field: string, message: string | null): void {
    const { [field]: _drop, ...rest } = this.errors
    void _drop
    this.errors = message === null ? rest : { ...rest, [field]: message }
    if (message !== null) this.#show('Not saved: check the highlighted field.', true)
  }
}
