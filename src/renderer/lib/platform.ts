// Which desktop the window runs on, from the user agent (the renderer has no Node): the base type
// size and the Dock setting depend on it.

/** macOS: Electron's user agent says "Macintosh" there. */
export function isMac(userAgent: string): boolean {
  return /\bMacintosh\b|\bMac OS X\b/.test(userAgent)
}
