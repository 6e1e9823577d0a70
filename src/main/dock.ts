// macOS: with "hide the Dock icon" on, the app has none, except while the window is pinned open, so the Dock and
// Cmd-Tab reach it like any window.

export function dockIconVisible(input: {
  platform: NodeJS.Platform
  hideDockIcon: boolean
  windowVisible: boolean
  pinned: boolean
}): boolean | null {
  if (input.platform !== 'darwin') return null
  if (!input.hideDockIcon) return true
  return input.windowVisible && input.pinned
}

/** Shows or hides the Dock icon only when that changes (app.dock.show() brings the app forward). */
export function createDockSync(dock: { show(): unknown; hide(): void } | undefined): (visible: boolean | null) => void {
  let last: boolean | null = null
  return (visible) => {
    if (!dock || visible === null || visible === last) return
    last = visible
    if (visible) void dock.show()
    else dock.hide()
  }
}
