// The window's webPreferences, in one pure function so the security checklist's settings are
// tested: an isolated, sandboxed renderer with no Node, no webviews, no insecure content.
import type { WebPreferences } from 'electron'

export function secureWebPreferences(preloadPath: string, options: { devTools: boolean }): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    spellcheck: false,
    navigateOnDragDrop: false,
    // DevTools in development only: in a shipped app they would let anyone at the keyboard run code in our page.
    devTools: options.devTools
  }
}
