// What the user is told when a settings file cannot be read or written, per cause: one line that
// names the file, what was being done, what to do, and that nothing changed. (The causes this
// machine can make for real, a directory, a pipe, a loop, a path through a file, another owner,
// are met through the store in damaged-files.test.ts.)
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkSettingsFile, describeFileFailure, onFile, SettingsFileError } from './file-error'

const FILE = '/home/a/.config/agent-tray/config.json'
const failure = (code: string | undefined, message = `${code}: it failed`) =>
  Object.assign(new Error(message), { code })

describe('describeFileFailure', () => {
  it('names the cause the user can act on, and what was being done', () => {
    expect(describeFileFailure(FILE, 'write', failure('ENOSPC'))).toBe(
      `Cannot write ${FILE}: the disk is full; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'keep a copy of', failure('EDQUOT'))).toBe(
      `Cannot keep a copy of ${FILE}: the disk is full; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'write', failure('EROFS'))).toBe(
      `Cannot write ${FILE}: the file system is read-only; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'write', failure('EEXIST'))).toBe(
      `Cannot write ${FILE}: a directory on its path is a file; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'keep a copy of', failure('EEXIST'))).toBe(
      `Cannot keep a copy of ${FILE}: something else is at that name (a link, or a file made meanwhile); remove it; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'read', failure('ENOTDIR'))).toBe(
      `Cannot read ${FILE}: a directory on its path is a file; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'read', failure('EISDIR'))).toBe(
      `${FILE} is a directory, not a settings file: move it away (Agent Tray then starts a new one); nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'read', failure('ELOOP'))).toBe(
      `${FILE} is a symbolic link that points to itself: remove it; nothing was changed.`
    )
    for (const code of ['EACCES', 'EPERM']) {
      expect(describeFileFailure(FILE, 'write', failure(code))).toBe(
        `Cannot write ${FILE}: permission denied. Give your user read and write access to it and its directory (a file made with sudo belongs to root); nothing was changed.`
      )
    }
  })

  it('any other failure: its first line only, trimmed, whatever was thrown', () => {
    expect(
      describeFileFailure(FILE, 'read', failure('EIO', '  EIO: i/o error, read  \n    at Object.readFileSync'))
    ).toBe(`Cannot read ${FILE}: EIO: i/o error, read; nothing was changed.`)
    expect(describeFileFailure(FILE, 'write', failure(undefined, 'no code'))).toBe(
      `Cannot write ${FILE}: no code; nothing was changed.`
    )
    // A code that is not text is no code.
    expect(describeFileFailure(FILE, 'write', Object.assign(new Error('odd'), { code: 28 }))).toBe(
      `Cannot write ${FILE}: odd; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'write', 'a string\nthrown')).toBe(
      `Cannot write ${FILE}: a string; nothing was changed.`
    )
    expect(describeFileFailure(FILE, 'write', null)).toBe(`Cannot write ${FILE}: null; nothing was changed.`)
  })
})

describe('onFile', () => {
  it('returns what the operation returns, and turns a failure into a SettingsFileError that keeps its cause', () => {
    expect(onFile(FILE, 'read', () => 42)).toBe(42)
    const cause = failure('ENOSPC')
    let thrown: unknown
    try {
      onFile(FILE, 'write', () => {
        throw cause
      })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SettingsFileError)
    expect((thrown as SettingsFileError).message).toBe(`Cannot write ${FILE}: the disk is full; nothing was changed.`)
    expect((thrown as SettingsFileError).cause).toBe(cause)
    expect((thrown as SettingsFileError).name).toBe('SettingsFileError')
  })

  it('passes a SettingsFileError through as it is (its message already says what to do)', () => {
    const inner = new SettingsFileError(
      'config.json is not a regular file (a device): move it away; nothing was changed.'
    )
    expect(() =>
      onFile(FILE, 'read', () => {
        throw inner
      })
    ).toThrow(inner)
  })
})

describe('checkSettingsFile', () => {
  it('no file is no failure; one that cannot even be looked at is refused with what the look met', () => {
    expect(() =>
      checkSettingsFile(path.join(os.tmpdir(), `agent-tray-none-${process.pid}`, 'config.json'))
    ).not.toThrow()
    const tooLong = path.join(os.tmpdir(), 'x'.repeat(300), 'config.json')
    expect(() => checkSettingsFile(tooLong)).toThrow(
      new SettingsFileError(
        `Cannot read ${tooLong}: ENAMETOOLONG: name too long, stat '${tooLong}'; nothing was changed.`
      )
    )
  })
})

describe('checkSettingsFile, before conf reads the file', () => {
  it('a directory in its place is refused, with EISDIR as the cause', () => {
    let thrown: unknown
    try {
      checkSettingsFile(os.tmpdir())
    } catch (error) {
      thrown = error
    }
    expect((thrown as SettingsFileError).message).toBe(
      `${os.tmpdir()} is a directory, not a settings file: move it away (Agent Tray then starts a new one); nothing was changed.`
    )
    expect((thrown as SettingsFileError).cause).toMatchObject({ code: 'EISDIR', message: 'is a directory' })
  })
})
