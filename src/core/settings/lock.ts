// Cross-process lock around a read-modify-write of one file. proper-lockfile is used because its
// lock (an atomic mkdir of `<file>.lock`, kept fresh by mtime updates and taken over when stale)
// works for any two processes on any platform and filesystem, including network drives, with no
// native code; it is widely used (npm itself used it) and has retries with backoff built in.
import fs from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { describeFileFailure, onFile, SettingsFileError } from './file-error'

/** The lock could not be taken: another process held it too long, or its directory cannot be written. */
export class SettingsLockError extends SettingsFileError {
  override name = 'SettingsLockError'
}

const RETRIES = { retries: 120, factor: 1.25, minTimeout: 5, maxTimeout: 250, randomize: true }

/** Runs `fn` while holding the lock of `file` (the file itself need not exist). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  onFile(path.dirname(file), 'write', () => fs.mkdirSync(path.dirname(file), { recursive: true }))
  let compromised: Error | null = null
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(file, {
      realpath: false,
      stale: 10_000,
      retries: RETRIES,
      onCompromised: (error) => {
        compromised = error
      }
    })
  } catch (error) {
    const held = (error as { code?: unknown }).code === 'ELOCKED'
    throw new SettingsLockError(
      held
        ? `Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`
        : describeFileFailure(`${file}.lock`, 'write', error),
      { cause: error }
    )
  }
  try {
    const result = await fn()
    if (compromised) {
      throw new SettingsLockError(`Lost the lock of ${file} while writing: ${(compromised as Error).message}`)
    }
    return result
  } finally {
    await release().catch(() => undefined)
  }
}
