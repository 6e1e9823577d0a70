// Desktop notifications: the policy, the mapping and each platform's additions are core's; this file shows them and
// routes clicks.
import { execFile } from 'node:child_process'
import { Notification } from 'electron'
import { type InterfaceRef, notificationExtras } from '../core/desktop/notification-extras'
import { findSoundTools } from '../core/desktop/on-path'
import { soundNote, soundPlan } from '../core/desktop/sound'
import type { Notification as CoreNotification } from '../core/notify/policy'
import type { DesktopNotification } from '../core/tray/notification'
import { toDesktopNotification } from '../core/tray/notification'
import type { DesktopNote } from '../shared/desktop'

export function createNotifier(deps: {
  iconPath: string
  sound: () => boolean
  onClick: (click: DesktopNotification['click']) => void
  /** Whether a project has a prebuilt interface to open (macOS's action). */
  hasInterface: (project: InterfaceRef) => boolean
  openInterface: (project: InterfaceRef) => void
  log: (message: string) => void
}): { notify(n: CoreNotification): void; tell(title: string, body: string): void; notes(): DesktopNote[] } {
  // A shown notification must stay referenced, or it may be collected and its click lost.
  const live = new Set<Notification>()
  let unsupportedLogged = false
  const tools = findSoundTools(process.env)

  function show(n: CoreNotification, wantSound: boolean): void {
    if (!Notification.isSupported()) {
      if (!unsupportedLogged) deps.log('notifications: not supported on this system; the window still lists changes')
      unsupportedLogged = true
      return
    }
    const sound = soundPlan(process.platform, wantSound, tools)
    const desktop = toDesktopNotification(n, { sound: !sound.silent }, process.platform)
    const extras = notificationExtras(n, process.platform, { hasInterface: deps.hasInterface })
    const note = new Notification({
      ...desktop.options,
      icon: deps.iconPath,
      urgency: extras.urgency,
      actions: extras.actions
    })
    live.add(note)
    const forget = (): void => void live.delete(note)
    note.on('click', () => {
      forget()
      deps.onClick(desktop.click)
    })
    note.on('action', () => {
      forget()
      if (extras.action) deps.openInterface(extras.action)
    })
    note.on('close', forget)
    note.on('failed', (_e, error) => {
      forget()
      deps.log(`notifications: could not show one: ${error}`)
    })
    note.show()
    if (sound.play)
      execFile(
        sound.play.command,
        sound.play.args,
        { timeout: 10_000 },
        (error) => error && deps.log(`notifications: sound: ${error.message}`)
      )
  }

  return {
    notify(n) {
      show(n, deps.sound())
    },
    /** A message from the app itself (e.g. a shortcut that could not be registered). */
    tell(title, body) {
      show({ title, body, kind: 'summary' }, false)
    },
    /** What Settings should say about notifications on this desktop. */
    notes() {
      const note = soundNote(process.platform, tools)
      return note ? [note] : []
    }
  }
}
