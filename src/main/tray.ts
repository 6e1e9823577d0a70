// Draws core/tray's view with Electron. The menu is on right-click, and on click too on Linux, where a panel may send
// no click at all (its first item opens the window).
import { join } from 'node:path'
import type { Menu as ElectronMenu, MenuItemConstructorOptions, Rectangle } from 'electron'
import { Menu, nativeImage, nativeTheme, Tray } from 'electron'
import { panelIsDark, trayIconFile } from '../core/tray/icon'
import type { TrayAction, TrayMenuItem } from '../core/tray/menu'
import { createMenuMemo } from '../core/tray/menu'
import type { TrayView } from '../core/tray/model'
import type { TrayState } from '../core/tray/state'

export interface TrayAdapter {
  render(view: TrayView): void
  /** Where the icon is (DIPs); null when the platform does not say (some Linux panels give zeros). */
  bounds(): Rectangle | null
  destroy(): void
}

export function createTray(deps: {
  trayDir: string
  platform: NodeJS.Platform
  perform: (action: TrayAction) => void
  /** A left click on the icon, with its bounds (the popover opens there). */
  onClick: (bounds: Rectangle | null) => void
  /** nativeTheme.shouldUseDarkColors read before the app set its own theme (see below). */
  systemDarkAtStart: boolean
}): TrayAdapter {
  // The panel follows the system, not our window's theme; once themeSource is set, shouldUseDarkColors stops telling
  // the system's, so keep the last value seen under 'system'.
  let systemDark = deps.systemDarkAtStart
  let state: TrayState = 'idle'
  let iconFile = ''
  let tooltip = ''

  const image = (file: string): Electron.NativeImage => {
    // createFromPath picks up `name@2x.png` beside `name.png` by itself.
    const img = nativeImage.createFromPath(join(deps.trayDir, file))
    if (deps.platform === 'darwin') img.setTemplateImage(true)
    return img
  }
  const fileFor = (s: TrayState): string =>
    trayIconFile(s, {
      platform: deps.platform,
      darkPanel: panelIsDark(deps.platform, {
        shouldUseDarkColors: systemDark,
        systemUiDark: deps.platform === 'win32' ? nativeTheme.shouldUseDarkColorsForSystemIntegratedUI : undefined
      })
    })

  iconFile = fileFor(state)
  const tray = new Tray(image(iconFile))
  let menu: ElectronMenu | null = null
  tray.on('click', (_event, bounds) => deps.onClick(bounds))
  // macOS: a menu set with setContextMenu would open on every click; there it pops up on right-click.
  if (deps.platform === 'darwin') tray.on('right-click', () => menu && tray.popUpContextMenu(menu))

  const toMenu = createMenuMemo((items) => Menu.buildFromTemplate(items.map((i) => toTemplate(i, deps.perform))))

  function refreshIcon(): void {
    const file = fileFor(state)
    if (file === iconFile) return
    iconFile = file
    tray.setImage(image(file))
  }

  const onTheme = (): void => {
    if (nativeTheme.themeSource === 'system') systemDark = nativeTheme.shouldUseDarkColors
    refreshIcon()
  }
  nativeTheme.on('updated', onTheme)

  const adapter: TrayAdapter = {
    render(view) {
      state = view.state
      refreshIcon()
      if (view.tooltip !== tooltip) {
        tooltip = view.tooltip
        tray.setToolTip(view.tooltip)
      }
      const { value, rebuilt } = toMenu(view.menu)
      menu = value
      // Linux needs a menu attached to show anything on click: it is set once, then on change.
      if (rebuilt && deps.platform !== 'darwin') tray.setContextMenu(value)
    },
    bounds() {
      const b = tray.getBounds()
      return b.width > 0 && b.height > 0 ? b : null
    },
    destroy() {
      nativeTheme.off('updated', onTheme)
      tray.destroy()
    }
  }
  return adapter
}

function toTemplate(item: TrayMenuItem, perform: (action: TrayAction) => void): MenuItemConstructorOptions {
  switch (item.kind) {
    case 'separator':
      return { type: 'separator' }
    case 'label':
      return { label: item.label, enabled: false }
    case 'submenu':
      return { label: item.label, submenu: item.items.map((i) => toTemplate(i, perform)) }
    case 'action': {
      const action = item.action
      return { label: item.label, enabled: item.enabled, click: () => perform(action) }
    }
  }
}
