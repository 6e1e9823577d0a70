// Cross-process lock around a read-modify-write of one file: proper-lockfile's `<file>.lock` (an
// atomic mkdir, its mtime kept fresh while held), so a holder that died frees it once STALE_MS old.
import fs from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { describeFileFailure, onFile, SettingsFileError } from './file-error'

/** The lock could not be taken: another process held it too long, or its directory cannot be written. */
export class SettingsLockError extends SettingsFileError {
  override name = 'SettingsLockError'
}

/** `waits`: tries again this many times (pauses growing from 5 to 250 ms) before giving up on a held lock. */
export type LockOptions = { waits?: number }

/** A lock not refreshed this long is a dead holder's: the minimum proper-lockfile's README allows (it refreshes every half of it). */
export const STALE_MS = 5_000
/** About 27 s in all, well past STALE_MS, so a killed holder's lock is waited out. */
const WAITS = 120
const PAUSES = { factor: 1.25, minTimeout: 5, maxTimeout: 250, randomize: true }

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code

/** Runs `fn` while holding the lock of `file` (the file itself need not exist). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  onFile(path.dirname(file), 'write', () => fs.mkdirSync(path.dirname(file), { recursive: true }))
  let lost: Error | null = null
  const take = (retries: number) =>
    lockfile.lock(file, {
      realpath: false,
      stale: STALE_MS,
      retries: { retries, ...PAUSES },
      onCompromised: (error) => (lost = error)
    })
  let release: () => Promise<void>
  try {
    // A first try alone, so that a lock that cannot be made at all is told at once, not after the waits.
    release = await take(0).catch((error: unknown) =>
      errorCode(error) === 'ELOCKED' ? take(options.waits ?? WAITS) : Promise.reject(error)
    )
  } catch (error) {
    throw new SettingsLockError(
      errorCode(error) === 'ELOCKED'
        ? `Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`
        : describeFileFailure(`${path.resolve(file)}.lock`, 'write', error),
      { cause: error }
    )
  }
  try {
    const result = await fn()
    if (lost) throw new SettingsLockError(`Lost the lock of ${file} while writing: ${(lost as Error).message}`)
    return result
  } finally {
    // Refused once the lock was lost: it is another's now, or left to the stale rule.
    await release().catch(() => undefined)
  }
}
