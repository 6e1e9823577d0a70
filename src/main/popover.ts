// A click on the tray icon while the popover is open first takes its focus away (hiding it), then arrives as a
// click that must not open it again. Kept apart from Electron so it is tested with a fake window.

/** The parts of a BrowserWindow the popover listens to. */
export interface PopoverWindowLike {
  on(event: 'blur', listener: () => void): unknown
  webContents: {
    on(
      event: 'before-input-event',
      listener: (
        event: unknown,
        input: { type: string; key: string; alt?: boolean; control?: boolean; meta?: boolean; shift?: boolean }
      ) => void
    ): unknown
  }
}

/** A tray click this soon after the popover hid on blur is the click that took its focus. */
export const BLUR_CLICK_MS = 300

export interface PopoverBehaviour {
  /** Whether a tray click now should show the window (false: it just hid because of that click). */
  clickShows(now: number): boolean
}

export function attachPopoverBehaviour(
  win: PopoverWindowLike,
  options: { pinned: () => boolean; hide: () => void; now: () => number }
): PopoverBehaviour {
  let hiddenOnBlurAt = Number.NEGATIVE_INFINITY
  win.on('blur', () => {
    if (options.pinned()) return
    hiddenOnBlurAt = options.now()
    options.hide()
  })
  win.webContents.on('before-input-event', (_event, input) => {
    if (input.type !== 'keyDown' || input.key !== 'Escape' || input.alt || input.control || input.meta || input.shift)
      return
    if (!options.pinned()) options.hide()
  })
  return {
    clickShows: (now) => now - hiddenOnBlurAt > BLUR_CLICK_MS
  }
}
