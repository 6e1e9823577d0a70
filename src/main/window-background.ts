// The window's background before the page paints, so opening it never flashes another colour.
// These must equal `--bg` in src/renderer/app.css (light-dark(light, dark)); a test checks that.
export const WINDOW_BACKGROUND = { light: '#ffffff', dark: '#1b1e22' } as const

/** Pass nativeTheme.shouldUseDarkColors: it follows the OS, or the theme forced in Settings. */
export function windowBackground(dark: boolean): string {
  return dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light
}
