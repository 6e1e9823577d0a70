// What the window asks of the platform through the controller: the show/hide shortcut (taken
// before it is saved, refused with the reason and the old one kept), the pin and the Dock option
// (stored, then applied by main), and the clipboard.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SHORTCUT } from '../../shared/accelerator'
import { createSessionSecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { CLIPBOARD_FAILED, MAX_PASTED } from './clipboard'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import type { ControllerPorts } from './ports'

let dir: string
let settings: SettingsStore
let controller: AppController
let taken: string[]
let copied: string[]
let applied: number

async function start(extra: Partial<ControllerPorts> = {}): Promise<void> {
  settings = await openSettings({ dir })
  controller = createAppController({
    settings,
    secrets: createSessionSecretStore('test'),
    createClient: () => {
      throw new Error('no service in this test')
    },
    openExternal: async () => undefined,
    onSettingsChanged: () => void applied++,
    changeShortcut: (accelerator) =>
      accelerator === 'Control+Alt+T'
        ? 'Control+Alt+T is used by another application.'
        : (taken.push(accelerator), null),
    writeClipboardText: async (text) => void copied.push(text),
    ...extra
  })
  await controller.start()
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-window-'))
  taken = []
  copied = []
  applied = 0
  await start()
})

afterEach(async () => {
  await controller.stop()
  await rm(dir, { recursive: true, force: true })
})

describe('the shortcut', () => {
  it('is taken from the platform before it is saved, in its canonical spelling', async () => {
    expect(await dispatch(controller.handlers, 'settings:update', { shortcut: 'ctrl+shift+k' })).toMatchObject({
      ok: true,
      value: { shortcut: 'Control+Shift+K' }
    })
    expect(taken).toEqual(['Control+Shift+K'])
    expect(settings.read().shortcut).toBe('Control+Shift+K')
    // The same shortcut again asks nothing of the platform.
    await dispatch(controller.handlers, 'settings:update', { shortcut: 'Control+Shift+K' })
    expect(taken).toEqual(['Control+Shift+K'])
  })

  it('one the platform refuses is refused with its reason, and the old one is kept', async () => {
    const result = await dispatch(controller.handlers, 'settings:update', { shortcut: 'Control+Alt+T' })
    expect(result).toEqual({
      ok: false,
      error: { kind: 'invalid_argument', message: 'Control+Alt+T is used by another application.' }
    })
    expect(settings.read().shortcut).toBe(DEFAULT_SHORTCUT)
    expect((await controller.handlers['settings:get']()).shortcut).toBe(DEFAULT_SHORTCUT)
  })

  it('one that is no shortcut never reaches the platform', async () => {
    const result = await dispatch(controller.handlers, 'settings:update', { shortcut: 'Shift+A' })
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid_argument', message: expect.stringMatching(/shortcut: A shortcut needs/) }
    })
    expect(taken).toEqual([])
  })
})

describe('the pin and the Dock', () => {
  it('are stored across restarts and handed to the platform', async () => {
    expect(await controller.handlers['settings:get']()).toMatchObject({ pinned: false, hideDockIcon: true })
    const before = applied
    await controller.handlers['settings:update']({ pinned: true, hideDockIcon: false })
    expect(applied).toBe(before + 1)
    await controller.stop()
    await start()
    expect(await controller.handlers['settings:get']()).toMatchObject({ pinned: true, hideDockIcon: false })
  })
})

describe('the clipboard', () => {
  it('takes one line of text; without a clipboard it says so', async () => {
    expect(
      await dispatch(controller.handlers, 'clipboard:write-text', { text: 'https://shop.apps.example.com' })
    ).toEqual({ ok: true, value: undefined })
    expect(copied).toEqual(['https://shop.apps.example.com'])
    expect(await dispatch(controller.handlers, 'clipboard:write-text', { text: 'two\nlines' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_argument' }
    })
    await controller.stop()
    await start({ writeClipboardText: undefined })
    expect(await dispatch(controller.handlers, 'clipboard:write-text', { text: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_argument', message: expect.stringMatching(/no clipboard/) }
    })
  })

  it('reads one line of text for a Paste button, and refuses more than a line or nothing', async () => {
    await controller.stop()
    let clipboard = '  sk-pasted-key-0123456789\n'
    await start({ readClipboardText: () => clipboard })
    expect(await dispatch(controller.handlers, 'clipboard:read-text', undefined)).toEqual({
      ok: true,
      value: { text: 'sk-pasted-key-0123456789' }
    })
    for (const [text, problem] of [
      ['sk-first\nsk-second', /more than one line/],
      ['sk-' + 'x'.repeat(MAX_PASTED), /more than one line/],
      ['   ', /no text/]
    ] as const) {
      clipboard = text
      const result = await dispatch(controller.handlers, 'clipboard:read-text', undefined)
      expect(result).toMatchObject({
        ok: false,
        error: { kind: 'invalid_argument', message: expect.stringMatching(problem) }
      })
      // The refusal never repeats what the clipboard holds.
      expect(JSON.stringify(result)).not.toContain('sk-')
    }
    await controller.stop()
    await start({ readClipboardText: undefined })
    expect(await dispatch(controller.handlers, 'clipboard:read-text', undefined)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/no clipboard/) }
    })
  })

  it('a clipboard write that fails is told to the window as a failure, not as copied', async () => {
    await controller.stop()
    const logged: string[] = []
    await start({
      writeClipboardText: async () => Promise.reject(new Error('the clipboard is owned by another process')),
      onError: (context, e) => void logged.push(`${context}: ${(e as Error).message}`)
    })
    // In words the window can show (not "something went wrong while handling clipboard:write-text"), and logged.
    const failed = { ok: false, error: { kind: 'internal', message: CLIPBOARD_FAILED } }
    expect(await dispatch(controller.handlers, 'clipboard:write-text', { text: 'x' })).toEqual(failed)
    expect(await dispatch(controller.handlers, 'app:copy-diagnostics', undefined)).toEqual(failed)
    expect(logged).toEqual([
      'clipboard write: the clipboard is owned by another process',
      'clipboard write: the clipboard is owned by another process'
    ])
  })
})
