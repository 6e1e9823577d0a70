// electron-updater updates only an installed build carrying app-update.yml: on Linux the AppImage, or the deb it was
// told it came from. Why not is shown in About and Settings.

export function updateSupport(facts: {
  packaged: boolean
  platform: string
  env: Record<string, string | undefined>
  /** resources/app-update.yml exists. */
  hasFeedConfig: boolean
  /** resources/package-type exists (electron-builder writes it for deb, rpm and pacman). */
  hasPackageType: boolean
}): { ok: true } | { ok: false; reason: string } {
  if (!facts.packaged) return { ok: false, reason: 'a development build' }
  if (!facts.hasFeedConfig) return { ok: false, reason: 'this build was made without an update feed' }
  if (facts.platform === 'linux') {
    if (facts.env.SNAP) return { ok: false, reason: 'snap updates this app' }
    if (!facts.env.APPIMAGE && !facts.hasPackageType)
      return { ok: false, reason: 'your package manager updates this app' }
  }
  return { ok: true }
}
