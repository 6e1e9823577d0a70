// A conflict is logged every launch but told once, until the keys are ours again; a change takes the new keys before
// letting the old go, so a refused change keeps the old one.
import { acceleratorLabel, DEFAULT_SHORTCUT } from '../shared/accelerator'

export const SHOW_HIDE_ACCELERATOR = DEFAULT_SHORTCUT

export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean
  unregister(accelerator: string): void
}

export function registerShowHideShortcut(options: {
  globalShortcut: GlobalShortcutLike
  toggle: () => void
  log: (message: string) => void
  tellUser: (message: string) => void
  /** Whether the user was told already, and how to remember it (a settings flag). */
  notice: { shown: boolean; remember: (shown: boolean) => void }
  accelerator?: string
}): ShowHideShortcut {
  let accelerator = options.accelerator ?? SHOW_HIDE_ACCELERATOR
  let registered = false
  try {
    registered = options.globalShortcut.register(accelerator, options.toggle)
  } catch (err) {
    options.log(`shortcut: ${accelerator} could not be registered: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (registered) {
    if (options.notice.shown) options.notice.remember(false)
  } else {
    options.log(`shortcut: ${accelerator} is taken by another application`)
    if (!options.notice.shown) {
      options.notice.remember(true)
      options.tellUser(
        `The shortcut ${accelerator.replace('CommandOrControl', process.platform === 'darwin' ? 'Cmd' : 'Ctrl')} is used by another application, so Agent Tray opens from its tray icon only.`
      )
    }
  }
  const tryRegister = (next: string): boolean => {
    try {
      return options.globalShortcut.register(next, options.toggle)
    } catch (err) {
      options.log(`shortcut: ${next} could not be registered: ${err instanceof Error ? err.message : String(err)}`)
      return false
    }
  }
  return {
    get registered() {
      return registered
    },
    get accelerator() {
      return accelerator
    },
    change(next) {
      if (next === accelerator && registered) return null
      if (registered) options.globalShortcut.unregister(accelerator)
      if (!tryRegister(next)) {
        // Back to the keys we had, so a refused change loses nothing.
        if (registered && !tryRegister(accelerator)) registered = false
        options.log(`shortcut: ${next} was refused; keeping ${accelerator}`)
        return `${acceleratorLabel(next, process.platform === 'darwin')} cannot be used: another application has it, or the system keeps it. The shortcut stays ${acceleratorLabel(accelerator, process.platform === 'darwin')}.`
      }
      accelerator = next
      registered = true
      if (options.notice.shown) options.notice.remember(false)
      return null
    },
    dispose: () => {
      if (registered) options.globalShortcut.unregister(accelerator)
      registered = false
    }
  }
}

export interface ShowHideShortcut {
  readonly registered: boolean
  readonly accelerator: string
  /** Takes `next` as the shortcut: null once it is ours, else why not (the old one stays registered). */
  change(next: string): string | null
  dispose(): void
}
