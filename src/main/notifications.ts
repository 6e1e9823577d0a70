// Desktop notifications. The policy (what to notify, coalescing bursts) is core/notify's; the
// mapping to OS options (escaping included) is core/tray's; this file shows them and routes clicks.
import { Notification } from 'electron'
import type { Notification as CoreNotification } from '../core/notify/policy'
import type { DesktopNotification } from '../core/tray/notification'
import { toDesktopNotification } from '../core/tray/notification'

export function createNotifier(deps: {
  iconPath: string
  sound: () => boolean
  onClick: (click: DesktopNotification['click']) => void
  log: (message: string) => void
}): { notify(n: CoreNotification): void; tell(title: string, body: string): void } {
  // A shown notification must stay referenced, or it may be collected and its click lost.
  const live = new Set<Notification>()
  let unsupportedLogged = false

  function show(desktop: DesktopNotification): void {
    if (!Notification.isSupported()) {
      if (!unsupportedLogged) deps.log('notifications: not supported on this system; the window still lists changes')
      unsupportedLogged = true
      return
    }
    const note = new Notification({ ...desktop.options, icon: deps.iconPath })
    live.add(note)
    const forget = (): void => void live.delete(note)
    note.on('click', () => {
      forget()
      deps.onClick(desktop.click)
    })
    note.on('close', forget)
    note.on('failed', (_e, error) => {
      forget()
      deps.log(`notifications: could not show one: ${error}`)
    })
    note.show()
  }

  return {
    notify(n) {
      show(toDesktopNotification(n, { sound: deps.sound() }, process.platform))
    },
    /** A message from the app itself (e.g. a shortcut that could not be registered). */
    tell(title, body) {
      show(toDesktopNotification({ title, body, kind: 'summary' }, { sound: false }, process.platform))
    }
  }
}
