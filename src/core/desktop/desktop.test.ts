import { type ChildProcess, spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { Notification } from '../notify/policy'
import { deepLinkInArgv } from './deep-link-argv'
import { type InterfaceRef, notificationExtras, OPEN_INTERFACE_ACTION } from './notification-extras'
import { shortcutNote } from './shortcut-note'
import { MESSAGE_SOUND_FILE, soundNote, soundPlan, type SoundTools } from './sound'
import { queryTrayHost, shouldTellTrayHidden, trayHostFromReplies } from './tray-host'

const note = (over: Partial<Notification>): Notification => ({
  kind: 'task',
  title: 'Task failed',
  body: 'x',
  projectId: 'p1',
  taskId: 't1',
  ...over
})

describe('platform notification extras', () => {
  const has = { hasInterface: (p: InterfaceRef) => p.projectId === 'p1' && p.connectionId !== 'c-other' }
  it('makes a failure or a task waiting for you critical on Linux, anything else normal', () => {
    expect(notificationExtras(note({ outcome: 'failed' }), 'linux', has)).toEqual({ urgency: 'critical' })
    expect(notificationExtras(note({ kind: 'waiting', outcome: 'waiting' }), 'linux', has)).toEqual({
      urgency: 'critical'
    })
    // A waiting task offers no interface of a watched project: it is answered on its own screen.
    expect(notificationExtras(note({ kind: 'waiting', outcome: 'waiting' }), 'darwin', has)).toEqual({})
    expect(notificationExtras(note({ outcome: 'completed' }), 'linux', has)).toEqual({ urgency: 'normal' })
    expect(
      notificationExtras(note({ kind: 'summary', title: '2 tasks finished: 1 failed, 1 completed' }), 'linux', has)
    ).toEqual({ urgency: 'normal' })
    expect(notificationExtras(note({ outcome: 'failed' }), 'win32', has)).toEqual({})
  })

  it("offers 'Open the agent interface' on macOS for a completed task of a project that has one", () => {
    expect(notificationExtras(note({ outcome: 'completed' }), 'darwin', has)).toEqual({
      actions: [{ type: 'button', text: OPEN_INTERFACE_ACTION }],
      action: { type: 'open-interface', projectId: 'p1' }
    })
    expect(notificationExtras(note({ outcome: 'failed' }), 'darwin', has)).toEqual({})
    expect(notificationExtras(note({ outcome: 'completed', projectId: 'p2' }), 'darwin', has)).toEqual({})

    // Asked, and opened, on the notification's own account: another may watch the same project id.
    expect(notificationExtras(note({ outcome: 'completed', connectionId: 'c-work' }), 'darwin', has).action).toEqual({
      type: 'open-interface',
      projectId: 'p1',
      connectionId: 'c-work'
    })
    expect(notificationExtras(note({ outcome: 'completed', connectionId: 'c-other' }), 'darwin', has)).toEqual({})
  })
})

describe('the notification sound on Linux', () => {
  const tools = (over: Partial<SoundTools> = {}): SoundTools => ({
    canberraGtkPlay: false,
    paplay: false,
    messageSoundFile: false,
    ...over
  })
  it('plays it with canberra-gtk-play, else paplay, keeping the notification itself silent', () => {
    expect(soundPlan('linux', true, tools({ canberraGtkPlay: true, paplay: true }))).toEqual({
      silent: true,
      play: { command: 'canberra-gtk-play', args: ['--id=message-new-instant', '--description=Agent Tray'] }
    })
    expect(soundPlan('linux', true, tools({ paplay: true, messageSoundFile: true }))).toEqual({
      silent: true,
      play: { command: 'paplay', args: [MESSAGE_SOUND_FILE] }
    })
    expect(soundPlan('linux', false, tools({ canberraGtkPlay: true }))).toEqual({ silent: true, play: null })
    expect(soundNote('linux', tools({ canberraGtkPlay: true }))).toBeNull()
  })

  it('without either (or paplay without the sound file) leaves it to the desktop and says so', () => {
    expect(soundPlan('linux', true, tools({ paplay: true }))).toEqual({ silent: false, play: null })
    expect(soundPlan('linux', false, tools())).toEqual({ silent: true, play: null })
    expect(soundNote('linux', tools())).toMatchObject({
      id: 'sound-by-desktop',
      text: expect.stringContaining('canberra-gtk-play')
    })
  })

  it('elsewhere the OS plays it', () => {
    expect(soundPlan('darwin', true, tools())).toEqual({ silent: false, play: null })
    expect(soundPlan('win32', false, tools({ canberraGtkPlay: true }))).toEqual({ silent: true, play: null })
    expect(soundNote('win32', tools())).toBeNull()
  })
})

describe('the tray host on Linux', () => {
  it('reads gdbus replies: no watcher, or a watcher without a host, is missing', () => {
    expect(trayHostFromReplies({ watcherOwned: '(false,)', hostRegistered: null })).toBe('missing')
    expect(trayHostFromReplies({ watcherOwned: '(true,)', hostRegistered: '(<false>,)' })).toBe('missing')
    expect(trayHostFromReplies({ watcherOwned: '(true,)', hostRegistered: '(<true>,)' })).toBe('present')
    expect(trayHostFromReplies({ watcherOwned: null, hostRegistered: null })).toBe('unknown')
    expect(trayHostFromReplies({ watcherOwned: '(true,)', hostRegistered: null })).toBe('unknown')
    expect(trayHostFromReplies({ watcherOwned: 'garbage', hostRegistered: null })).toBe('unknown')
  })

  it('tells once, on Linux only, and keeps the note in Settings while it lasts', () => {
    expect(shouldTellTrayHidden('linux', 'missing', false)).toEqual({ note: true, notify: true, remember: true })
    expect(shouldTellTrayHidden('linux', 'missing', true)).toEqual({ note: true, notify: false, remember: null })
    expect(shouldTellTrayHidden('linux', 'unknown', false)).toEqual({ note: false, notify: false, remember: null })
    expect(shouldTellTrayHidden('linux', 'unknown', true)).toEqual({ note: false, notify: false, remember: null })
    expect(shouldTellTrayHidden('linux', 'present', false)).toEqual({ note: false, notify: false, remember: null })
    // A host seen again: should it go missing later, the user is told again.
    expect(shouldTellTrayHidden('linux', 'present', true)).toEqual({ note: false, notify: false, remember: false })
    expect(shouldTellTrayHidden('darwin', 'missing', false)).toEqual({ note: false, notify: false, remember: null })
  })

  it('asks a real session bus: with no StatusNotifier watcher on it, missing; with no bus, unknown', async () => {
    let daemon: ChildProcess | null = null
    try {
      const address = await new Promise<string>((resolve, reject) => {
        daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
          stdio: ['ignore', 'pipe', 'ignore']
        })
        daemon.on('error', reject)
        daemon.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))
      })
      expect(await queryTrayHost({ ...process.env, DBUS_SESSION_BUS_ADDRESS: address })).toBe('missing')
      expect(await queryTrayHost({ ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })).toBe(
        'unknown'
      )
    } finally {
      ;(daemon as ChildProcess | null)?.kill()
    }
  })
})

describe('the shortcut note', () => {
  it('explains Wayland, with the desktop shortcut to agent-tray open as the fix', () => {
    const n = shortcutNote({
      platform: 'linux',
      registered: false,
      env: { XDG_SESSION_TYPE: 'wayland' },
      keys: 'Ctrl+Shift+A'
    })
    expect(n).toMatchObject({
      id: 'shortcut-unavailable',
      title: 'The shortcut Ctrl+Shift+A is not available under Wayland'
    })
    expect(n!.text).toContain('agent-tray open')
    expect(
      shortcutNote({ platform: 'linux', registered: false, env: { WAYLAND_DISPLAY: 'wayland-0' }, keys: 'K' })!.title
    ).toMatch(/Wayland/)
    expect(
      shortcutNote({ platform: 'linux', registered: false, env: { XDG_SESSION_TYPE: 'x11' }, keys: 'K' })!.title
    ).toBe('The shortcut K is taken')
    expect(
      shortcutNote({ platform: 'linux', registered: true, env: { XDG_SESSION_TYPE: 'wayland' }, keys: 'K' })
    ).toBeNull()
  })
})

describe('a deep link in a launch', () => {
  it('is the first argument in our scheme, wherever Chromium put its switches', () => {
    expect(deepLinkInArgv(['/opt/Agent Tray/agent-tray', '--no-sandbox', 'agent-tray://projects/p1'])).toBe(
      'agent-tray://projects/p1'
    )
    expect(
      deepLinkInArgv(['app.exe', '--allow-file-access-from-files', 'AGENT-TRAY://projects/p1/tasks/t1', 'x'])
    ).toBe('AGENT-TRAY://projects/p1/tasks/t1')
    expect(deepLinkInArgv(['app', '--demo'])).toBeNull()
    expect(deepLinkInArgv(['app', 'https://agent-tray.example'])).toBeNull()
  })
})
