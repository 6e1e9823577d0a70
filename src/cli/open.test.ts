// `agent-tray open`: the real command in a child process hands the link to the desktop's opener,
// here a stand-in script on PATH that records what it was given (the app's side of the handoff,
// the second-instance argv and open-url, is Electron's: see deep-link-argv.ts and compose's openDeepLink).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkOpener } from './open-link'
import { spawnCli } from './test-spawn'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-tray-open-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A stand-in for the platform's opener that writes its arguments to a file and exits with `code`. */
function fakeOpener(code = 0): { env: Record<string, string>; received: () => string } {
  const bin = join(dir, 'bin')
  const record = join(dir, 'received.txt')
  const { command } = linkOpener(process.platform, 'x')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, command), `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\nexit ${code}\n`)
  chmodSync(join(bin, command), 0o755)
  return {
    env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, AGENT_TRAY_CONFIG_DIR: dir },
    received: () => readFileSync(record, 'utf8')
  }
}

describe('agent-tray open', () => {
  it('picks the opener of each platform, never a shell', () => {
    expect(linkOpener('linux', 'agent-tray://projects/p1')).toEqual({
      command: 'xdg-open',
      args: ['agent-tray://projects/p1']
    })
    expect(linkOpener('darwin', 'agent-tray://projects/p1')).toEqual({
      command: 'open',
      args: ['agent-tray://projects/p1']
    })
    expect(linkOpener('win32', 'agent-tray://projects/p1')).toEqual({
      command: 'rundll32.exe',
      args: ['url.dll,FileProtocolHandler', 'agent-tray://projects/p1']
    })
  })

  it('hands the task link to the desktop, without a key or the service', async () => {
    const opener = fakeOpener()
    const run = await spawnCli(['open', 'p-1', 't:2'], opener.env).done
    expect(run).toMatchObject({ code: 0, err: '' })
    expect(opener.received()).toBe('agent-tray://projects/p-1/tasks/t:2\n')
  })

  it('without arguments opens the window, with one the project', async () => {
    const opener = fakeOpener()
    expect((await spawnCli(['open'], opener.env).done).code).toBe(0)
    expect(opener.received()).toBe('agent-tray://projects\n')
    expect((await spawnCli(['open', 'p-1', '--json'], opener.env).done).out).toBe(
      '{"url":"agent-tray://projects/p-1","opened":true}\n'
    )
    expect(opener.received()).toBe('agent-tray://projects/p-1\n')
  })

  it('--print prints the link and opens nothing', async () => {
    const opener = fakeOpener()
    expect(await spawnCli(['open', 'p-1', '--print'], opener.env).done).toMatchObject({
      code: 0,
      out: 'agent-tray://projects/p-1\n'
    })
    expect(() => opener.received()).toThrow(/ENOENT/)
  })

  it('refuses an id that could never be one, before anything runs', async () => {
    const opener = fakeOpener()
    const run = await spawnCli(['open', '../etc'], opener.env).done
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/^agent-tray: Not a project id: "..\/etc"/)
    expect(() => opener.received()).toThrow(/ENOENT/)
  })

  it('says so when the desktop cannot take the link (exit 11)', async () => {
    const failing = fakeOpener(4)
    const run = await spawnCli(['open', 'p-1'], failing.env).done
    expect(run.code).toBe(11)
    expect(run.err).toMatch(
      /Could not hand agent-tray:\/\/projects\/p-1 to the desktop: \S+ exited with 4\. Is Agent Tray installed/
    )
    const none = await spawnCli(['open', 'p-1'], { PATH: join(dir, 'empty'), AGENT_TRAY_CONFIG_DIR: dir }).done
    expect(none.code).toBe(11)
    expect(none.err).toMatch(/was not found/)
  })
})
