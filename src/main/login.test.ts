import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyLaunchAtLogin, AUTOSTART_FILE, autostartDir, autostartEntry, quoteExecArg } from './login'

describe('launch at login', () => {
  let home: string
  const calls: unknown[] = []
  const app = { setLoginItemSettings: (s: unknown) => void calls.push(s) }
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'agent-tray-login-'))
    calls.length = 0
  })
  afterEach(() => rm(home, { recursive: true, force: true }))

  const run = (over: Partial<Parameters<typeof applyLaunchAtLogin>[0]>) =>
    applyLaunchAtLogin({
      enabled: true,
      platform: 'linux',
      app,
      packaged: true,
      exec: '/opt/Agent Tray/agent-tray',
      env: { HOME: home },
      log: () => {},
      ...over
    })

  it('writes and removes the autostart entry on Linux', async () => {
    await run({})
    const file = join(home, '.config', 'autostart', AUTOSTART_FILE)
    expect(await readFile(file, 'utf8')).toContain('Exec="/opt/Agent Tray/agent-tray"')
    await run({ enabled: false })
    await expect(stat(file)).rejects.toThrow()
    expect(calls).toEqual([])
  })

  it('uses the OS login items on macOS and Windows', async () => {
    await run({ platform: 'darwin' })
    await run({ platform: 'win32', enabled: false })
    expect(calls).toEqual([{ openAtLogin: true }, { openAtLogin: false }])
  })

  it('does nothing in development', async () => {
    const logs: string[] = []
    await run({ packaged: false, platform: 'darwin', log: (m) => logs.push(m) })
    expect(calls).toEqual([])
    expect(logs).toHaveLength(1)
  })

  it('honours an absolute XDG_CONFIG_HOME only', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' })).toBe('/x/cfg/autostart')
    expect(autostartDir({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/autostart')
  })

  it('quotes Exec arguments per the desktop entry spec', () => {
    expect(quoteExecArg('/usr/bin/agent-tray')).toBe('/usr/bin/agent-tray')
    expect(quoteExecArg('/a b/$x"`\\')).toBe('"/a b/\\$x\\"\\`\\\\"')
    expect(autostartEntry('/usr/bin/agent-tray')).toMatch(/^\[Desktop Entry\]\nType=Application\n/)
  })
})
