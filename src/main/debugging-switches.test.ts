import fs from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { debuggingSwitch, refuseDebuggingSwitches } from './debugging-switches'

const app = '/opt/Agent Tray/agent-tray'

describe('debuggingSwitch', () => {
  it.each([
    ['--remote-debugging-port=9222'],
    ['--remote-debugging-port'],
    ['--remote-debugging-pipe'],
    ['-remote-debugging-port=9222'],
    ['--REMOTE-DEBUGGING-PORT=9222'],
    ['--remote_debugging_port=9222'],
    ['--inspect'],
    ['--inspect=127.0.0.1:9229'],
    ['--inspect-brk'],
    ['--inspect-brk-node'],
    ['--inspect-port=0'],
    ['--inspect-wait'],
    ['--js-flags=--allow-natives-syntax'],
    ['-js-flags=--expose-gc']
  ])('finds %s, wherever it is in argv', (arg) => {
    expect(debuggingSwitch([app, arg], 'linux')).toBe(arg.split('=')[0])
    expect(debuggingSwitch([app, '--demo', '--', arg], 'darwin')).toBe(arg.split('=')[0])
  })

  it("on Windows, Chromium's /switch form too", () => {
    expect(debuggingSwitch(['C:\\Agent Tray\\agent-tray.exe', '/remote-debugging-port=9222'], 'win32')).toBe(
      '/remote-debugging-port'
    )
    expect(debuggingSwitch([app, '/remote-debugging-port=9222'], 'linux')).toBeUndefined()
  })

  it('leaves ordinary launches alone', () => {
    for (const argv of [
      [app],
      [app, '--demo'],
      [app, '--no-sandbox'],
      [app, '--inspector-is-not-a-switch'],
      [app, 'remote-debugging-port'],
      [app, '--debug']
    ]) {
      expect(debuggingSwitch(argv, 'linux'), argv.join(' ')).toBeUndefined()
    }
  })
})

describe('refuseDebuggingSwitches', () => {
  it('exits 2 with a reason when there is one, and does nothing otherwise', () => {
    const exits: [number, string][] = []
    refuseDebuggingSwitches([app, '--demo'], 'linux', (code, why) => exits.push([code, why]))
    expect(exits).toEqual([])
    refuseDebuggingSwitches([app, '--remote-debugging-port=9222'], 'linux', (code, why) => exits.push([code, why]))
    expect(exits).toEqual([[2, expect.stringMatching(/^Agent Tray does not start with --remote-debugging-port: /)]])
  })
})

describe('the composition root', () => {
  // Electron cannot run here: read main's entry point instead, so the check cannot drift from first place.
  it('refuses debugging switches in the packaged app before it does anything else', () => {
    const path = new URL('./index.ts', import.meta.url)
    const source = ts.createSourceFile('index.ts', fs.readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
    const first = source.statements.find((s) => !ts.isImportDeclaration(s))
    expect(first && ts.isIfStatement(first)).toBe(true)
    const statement = first as ts.IfStatement
    expect(statement.expression.getText()).toBe('app.isPackaged')
    expect(statement.thenStatement.getText()).toMatch(
      /^refuseDebuggingSwitches\(\s*process\.argv,\s*process\.platform,\s/
    )
  })
})
