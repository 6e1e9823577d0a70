import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { attachPopoverBehaviour, BLUR_CLICK_MS, type PopoverWindowLike } from './popover'

/** A window as the popover sees it: focus and key events only. */
function fakeWindow() {
  const win = new EventEmitter()
  const webContents = new EventEmitter()
  return {
    window: Object.assign(win, { webContents }) as unknown as PopoverWindowLike,
    blur: () => win.emit('blur'),
    key: (key: string, mods: { shift?: boolean; control?: boolean } = {}, type = 'keyDown') =>
      webContents.emit('before-input-event', {}, { type, key, ...mods })
  }
}

function setup(pinned: boolean) {
  const fake = fakeWindow()
  let hidden = 0
  let now = 1_000
  const state = { pinned }
  const behaviour = attachPopoverBehaviour(fake.window, {
    pinned: () => state.pinned,
    hide: () => void hidden++,
    now: () => now
  })
  return { fake, behaviour, state, hidden: () => hidden, tick: (ms: number) => void (now += ms), now: () => now }
}

describe('the popover', () => {
  it('hides when it loses focus', () => {
    const t = setup(false)
    t.fake.blur()
    expect(t.hidden()).toBe(1)
  })

  it('hides on Escape, not on other keys, Escape with a modifier, or key up', () => {
    const t = setup(false)
    t.fake.key('a')
    t.fake.key('Escape', { shift: true })
    t.fake.key('Escape', {}, 'keyUp')
    expect(t.hidden()).toBe(0)
    t.fake.key('Escape')
    expect(t.hidden()).toBe(1)
  })

  it('pinned, it stays open on blur and on Escape; unpinned again, it hides', () => {
    const t = setup(true)
    t.fake.blur()
    t.fake.key('Escape')
    expect(t.hidden()).toBe(0)
    t.state.pinned = false
    t.fake.blur()
    expect(t.hidden()).toBe(1)
  })

  it('the tray click that took its focus does not open it again; a later click does', () => {
    const t = setup(false)
    expect(t.behaviour.clickShows(t.now())).toBe(true)
    t.fake.blur()
    t.tick(50)
    expect(t.behaviour.clickShows(t.now())).toBe(false)
    t.tick(BLUR_CLICK_MS)
    expect(t.behaviour.clickShows(t.now())).toBe(true)
  })
})
