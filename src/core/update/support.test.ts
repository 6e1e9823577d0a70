import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { APP_ID } from '../desktop/app-id'
import { updateSupport } from './support'

const facts = (over: Partial<Parameters<typeof updateSupport>[0]> = {}) => ({
  packaged: true,
  platform: 'linux',
  env: { APPIMAGE: '/home/ann/Agent-Tray.AppImage' },
  hasFeedConfig: true,
  hasPackageType: false,
  ...over
})

describe('whether this copy can update itself', () => {
  it('an installed AppImage, deb, dmg or NSIS build with a feed can', () => {
    expect(updateSupport(facts())).toEqual({ ok: true })
    expect(updateSupport(facts({ env: {}, hasPackageType: true }))).toEqual({ ok: true })
    expect(updateSupport(facts({ platform: 'darwin', env: {} }))).toEqual({ ok: true })
    expect(updateSupport(facts({ platform: 'win32', env: {} }))).toEqual({ ok: true })
  })

  it('says why not otherwise', () => {
    expect(updateSupport(facts({ packaged: false }))).toEqual({ ok: false, reason: 'a development build' })
    expect(updateSupport(facts({ hasFeedConfig: false }))).toEqual({
      ok: false,
      reason: 'this build was made without an update feed'
    })
    expect(updateSupport(facts({ env: { SNAP: '/snap/agent-tray/1' } }))).toEqual({
      ok: false,
      reason: 'snap updates this app'
    })
    expect(updateSupport(facts({ env: {} }))).toEqual({ ok: false, reason: 'your package manager updates this app' })
  })
})

describe('packaging', () => {
  const yml = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8')
  it('names the app as Windows toasts do (the AppUserModelId is the appId)', () => {
    expect(yml).toMatch(new RegExp(`^appId: ${APP_ID.replaceAll('.', '\\.')}$`, 'm'))
  })

  it('registers the agent-tray:// scheme and publishes updates (GitHub releases, or a generic feed set at build time)', () => {
    expect(yml).toMatch(/^protocols:\n {2}- name: Agent Tray link\n {4}schemes:\n {6}- agent-tray$/m)
    expect(yml).toMatch(/^publish:\n/m)
    expect(yml).toMatch(/provider: github/)
  })
})
