import { describe, expect, it } from 'vitest'
import { waylandWindowNote } from './wayland-window-note'

describe('waylandWindowNote', () => {
  it('explains the window under a Wayland session, by XDG_SESSION_TYPE or WAYLAND_DISPLAY', () => {
    expect(waylandWindowNote({ platform: 'linux', env: { XDG_SESSION_TYPE: 'wayland' } })).toMatchObject({
      id: 'wayland-window',
      title: expect.stringMatching(/Wayland/)
    })
    expect(waylandWindowNote({ platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } })).not.toBeNull()
  })

  it('says nothing under X11 or off Linux', () => {
    expect(waylandWindowNote({ platform: 'linux', env: { XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' } })).toBeNull()
    expect(waylandWindowNote({ platform: 'linux', env: { WAYLAND_DISPLAY: '' } })).toBeNull()
    expect(waylandWindowNote({ platform: 'darwin', env: { XDG_SESSION_TYPE: 'wayland' } })).toBeNull()
  })
})
