// The stand-in refuses what Electron refuses, or the demo test could pass on an app Electron
// would stop. One module instance, so the order matters: before `ready`, then after it.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import * as electron from './electron'

test.describe.configure({ mode: 'serial' })

const dir = mkdtempSync(join(tmpdir(), 'stand-in-'))
const image = join(dir, 'icon.png')
const preload = join(dir, 'preload.cjs')
writeFileSync(image, 'png')
writeFileSync(preload, '')

test('before ready: the APIs that need ready are refused, the ones that must come first are taken', async () => {
  expect(() => new electron.Tray(image)).toThrow(/before the app is ready/)
  expect(() => new electron.BrowserWindow({})).toThrow(/before the app is ready/)
  expect(() => new electron.Notification({ title: 't' })).toThrow(/before the app is ready/)
  expect(() => electron.screen.getPrimaryDisplay()).toThrow(/before the app is ready/)
  expect(() => electron.session.defaultSession).toThrow(/before the app is ready/)
  expect(() => electron.protocol.handle('app', () => new Response(''))).toThrow(/before the app is ready/)
  expect(() => electron.globalShortcut.register('A', () => {})).toThrow(/before the app is ready/)
  expect(() => electron.safeStorage.getSelectedStorageBackend()).toThrow(/before the app is ready/)
  expect(() => electron.powerMonitor.on('lock-screen', () => {})).toThrow(/before the app is ready/)
  expect(() => electron.powerMonitor.getSystemIdleTime()).toThrow(/before the app is ready/)
  expect(() => electron.powerMonitor.getSystemIdleState(60)).toThrow(/before the app is ready/)
  await expect(electron.safeStorage.isAsyncEncryptionAvailable()).rejects.toThrow(/before the app is ready/)
  electron.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true } }])
  electron.app.enableSandbox()
  electron.app.setPath('userData', dir)
  expect(() => electron.app.setPath('userData', 'relative')).toThrow(/absolute/)
})

test('after ready: what must come first is refused, and so are bad preloads, images and webPreferences', () => {
  electron.emitReady()
  expect(() => electron.protocol.registerSchemesAsPrivileged([])).toThrow(/only be called before the app is ready/)
  expect(() => electron.app.enableSandbox()).toThrow(/only be called before the app is ready/)
  expect(() => electron.app.setPath('userData', dir)).toThrow(/only be called before the app is ready/)
  expect(() => new electron.BrowserWindow({ webPreferences: { preload: 'preload.cjs' } })).toThrow(/must be absolute/)
  expect(() => electron.powerMonitor.getSystemIdleState(0.5)).toThrow(/whole|positive integer/)
  expect(electron.powerMonitor.getSystemIdleState(60)).toBe('active')
  expect(() => new electron.BrowserWindow({ webPreferences: { preload: join(dir, 'missing.cjs') } })).toThrow(
    /does not exist/
  )
  expect(() => new electron.BrowserWindow({ webPreferences: { nodeIntegrationEverywhere: true } as never })).toThrow(
    /unknown webPreferences key/
  )
  expect(() => new electron.Tray(join(dir, 'missing.png'))).toThrow(/image file does not exist/)
  expect(() => new electron.Tray(electron.nativeImage.createFromPath(join(dir, 'missing.png')))).toThrow(
    /image file does not exist/
  )
  // What Electron takes, the stand-in takes too.
  expect(() => new electron.Tray(electron.nativeImage.createFromPath(image))).not.toThrow()
  expect(
    () => new electron.BrowserWindow({ webPreferences: { preload, sandbox: true, contextIsolation: true } })
  ).not.toThrow()
})
