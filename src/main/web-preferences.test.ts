import { describe, expect, it } from 'vitest'
import { secureWebPreferences } from './web-preferences'

describe('secureWebPreferences', () => {
  it('turns on isolation and the sandbox and turns off Node, webviews and insecure content', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs', { devTools: false })
    expect(prefs).toEqual({
      preload: '/app/out/preload/index.cjs',
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
      devTools: false
    })
  })

  it('allows DevTools only when asked (development), changing nothing else', () => {
    const dev = secureWebPreferences('/p.cjs', { devTools: true })
    const prod = secureWebPreferences('/p.cjs', { devTools: false })
    expect(dev.devTools).toBe(true)
    expect({ ...dev, devTools: false }).toEqual(prod)
  })

  it('never enables a partition, so the app:// handler on the default session serves the window', () => {
    const prefs = secureWebPreferences('/p.cjs', { devTools: false })
    expect(prefs).not.toHaveProperty('partition')
    expect(prefs).not.toHaveProperty('session')
  })
})
