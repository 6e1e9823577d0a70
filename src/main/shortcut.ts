// The global show/hide shortcut. Another app may own the keys: then registration fails, we log it
// every launch but tell the user once (remembered in settings, not every launch), and the app
// carries on without it. Once the keys are ours again, a later conflict is told again.

export const SHOW_HIDE_ACCELERATOR = 'CommandOrControl+Shift+A'

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
}): { registered: boolean; dispose: () => void } {
  const accelerator = options.accelerator ?? SHOW_HIDE_ACCELERATOR
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
  return {
    registered,
    dispose: () => {
      if (registered) options.globalShortcut.unregister(accelerator)
    }
  }
}
