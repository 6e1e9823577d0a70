// Cross-process lock around a read-modify-write of one file. proper-lockfile makes and keeps the
// lock (an atomic mkdir of `<file>.lock`, kept fresh by mtime updates): it works for any two
// processes on any platform and filesystem, network drives included, with no native code, and is
// widely used (npm itself used it). On top of it, this file is the one rule of when a held lock may
// be taken: at once when the record inside it (lock-holder.ts) shows its holder certainly died, so a
// start after a crash does not wait; otherwise once its mtime is STALE_MS old, as before.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'
import { describeFileFailure, onFile, SettingsFileError } from './file-error'
import { certainlyDead, HOLDER_FILE, holderRecord, readHolder } from './lock-holder'

/** The lock could not be taken: another process held it too long, or its directory cannot be written. */
export class SettingsLockError extends SettingsFileError {
  override name = 'SettingsLockError'
}

export interface LockOptions {
  /** A lock whose holder is not certainly dead is taken once its mtime is this old (ms). */
  staleMs?: number
  /** Pauses (growing, jittered: 27 to 53 s in all by default) before giving up on a held lock. */
  waits?: number
}

const STALE_MS = 10_000
const WAITS = 120
const BACKOFF = { factor: 1.25, minMs: 5, maxMs: 250 }
/** Immediate new tries after a lock was taken over or went away, before they count as waits. */
const FREE_RETRIES = 10
/**
 * A lock taken over is renamed to a name made from what was judged (`<file>.lock.<id>.taken`), so a
 * second waiter that judged the same lock finds that name taken and cannot move the next holder's
 * lock away. Kept this long, then removed.
 */
const TAKEN_KEPT_MS = 3_600_000

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code

function pause(wait: number): Promise<void> {
  const ms = Math.min(BACKOFF.maxMs, BACKOFF.minMs * BACKOFF.factor ** wait) * (1 + Math.random())
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file)
  } catch {
    return null
  }
}

/**
 * Looks at a held lock and takes it over (moves it aside) if its holder certainly died or it is
 * stale. 'free': the lock is gone, try again now; 'held': wait. An empty lock directory (an older
 * Agent Tray's, or one whose record could not be written) is left to proper-lockfile's own stale
 * rule, the same rule.
 */
export function takeOverIfFree(lockDir: string, staleMs: number, now: number = Date.now()): 'free' | 'held' {
  const before = statOrNull(lockDir)
  if (!before) return 'free'
  let bytes: Buffer | null = null
  let entries: string[] = []
  let unreadable = false
  try {
    bytes = fs.readFileSync(path.join(lockDir, HOLDER_FILE))
  } catch {
    try {
      entries = fs.readdirSync(lockDir)
    } catch (error) {
      // Gone meanwhile (the next look decides), or another user's that this one cannot read (made
      // under sudo): proper-lockfile cannot remove it, so once stale it is taken over as any other.
      unreadable = errorCode(error) !== 'ENOENT'
    }
  }
  const after = statOrNull(lockDir)
  if (!after) return 'free'
  // Taken and remade between the two looks: what was read may be another lock's.
  if (after.ino !== before.ino || after.mtimeMs !== before.mtimeMs) return 'held'
  const stale = after.mtimeMs < now - staleMs
  if (bytes === null && entries.length === 0 && !unreadable) return stale ? 'free' : 'held'
  const holder = bytes && readHolder(bytes)
  if (!(holder && certainlyDead(holder)) && !stale) return 'held'
  const id = holder
    ? holder.token
    : crypto
        .createHash('sha256')
        .update(bytes ?? entries.join('\0'))
        .update(`\0${after.mtimeMs}`)
        .digest('hex')
        .slice(0, 32)
  const taken = `${lockDir}.${id}.taken`
  try {
    // Fails when `taken` exists (it is never empty): another waiter took this very lock first.
    fs.renameSync(lockDir, taken)
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'free' : 'held'
  }
  try {
    fs.utimesSync(taken, new Date(now), new Date(now))
  } catch {
    // Dated by its last refresh instead.
  }
  removeLeftovers(lockDir, now)
  return 'free'
}

/** Removes locks taken over more than TAKEN_KEPT_MS ago, and any left by a process killed while releasing. */
function removeLeftovers(lockDir: string, now: number): void {
  const dir = path.dirname(lockDir)
  const prefix = `${path.basename(lockDir)}.`
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue
      const at = statOrNull(path.join(dir, name))?.mtimeMs
      const old = name.endsWith('.taken') && at !== undefined && at < now - TAKEN_KEPT_MS
      if (old || name.endsWith('.released')) fs.rmSync(path.join(dir, name), { recursive: true, force: true })
    }
  } catch {
    // Tidying only.
  }
}

function callbackOf(rest: unknown[]): (error: NodeJS.ErrnoException | null) => void {
  return rest[rest.length - 1] as (error: NodeJS.ErrnoException | null) => void
}

/**
 * One try at the lock, with the fs proper-lockfile makes and removes it with: node's, with a mkdir
 * that writes the holder's record in the same synchronous step (so no await separates a lock from
 * its record: a process killed in between would leave an empty lock that only the mtime rule can
 * take), before proper-lockfile reads the mtime it checks as its own before each refresh. Its
 * rmdir is a plain one (a lock with a record in it is removed only by its holder or by
 * takeOverIfFree), and none at all once release() has removed the lock.
 */
interface Attempt {
  readonly fs: typeof fs
  /**
   * Removes the lock this try made, record and all, in one step: renamed away (then removed), so
   * a process killed while releasing leaves no lock behind, not even an empty one. Only while the
   * record in it is still this try's: a lock taken over meanwhile is another's. Where the rename
   * is refused (Windows, while another process reads the record), the record is removed and
   * proper-lockfile's rmdir removes the lock.
   */
  release(lockDir: string): void
}

function newAttempt(): Attempt {
  /** This try's record, once its mkdir made the lock. */
  let record: string | null = null
  let released = false
  const attemptFs = Object.assign(Object.create(fs) as typeof fs, {
    mkdir(dir: string, ...rest: unknown[]): void {
      try {
        fs.mkdirSync(dir)
      } catch (error) {
        process.nextTick(callbackOf(rest), error)
        return
      }
      const made = holderRecord()
      try {
        fs.writeFileSync(path.join(dir, HOLDER_FILE), made, { flag: 'wx', mode: 0o600 })
        record = made
      } catch {
        // Without a record the lock still works; after a crash it is taken by the mtime rule.
      }
      process.nextTick(callbackOf(rest), null)
    },
    rmdir(dir: string, ...rest: unknown[]): void {
      if (released) process.nextTick(callbackOf(rest), null)
      else fs.rmdir(dir, callbackOf(rest))
    }
  })
  return {
    fs: attemptFs,
    release(lockDir) {
      if (record === null) return
      const file = path.join(lockDir, HOLDER_FILE)
      const gone = `${lockDir}.${readHolder(Buffer.from(record))?.token}.released`
      try {
        if (fs.readFileSync(file, 'utf8') !== record) return
      } catch {
        return
      }
      try {
        fs.renameSync(lockDir, gone)
      } catch {
        try {
          fs.unlinkSync(file)
        } catch {
          // Gone already.
        }
        return
      }
      released = true
      try {
        fs.rmSync(gone, { recursive: true, force: true })
      } catch {
        // Left over; removed at the next takeover.
      }
    }
  }
}

async function takeLock(
  file: string,
  staleMs: number,
  waits: number,
  onCompromised: (error: Error) => void
): Promise<{ unlock: () => Promise<void>; attempt: Attempt }> {
  const lockDir = `${path.resolve(file)}.lock`
  let waited = 0
  let freeRetries = 0
  for (;;) {
    const attempt = newAttempt()
    try {
      const unlock = await lockfile.lock(file, { realpath: false, stale: staleMs, fs: attempt.fs, onCompromised })
      return { unlock, attempt }
    } catch (error) {
      // ENOTEMPTY: proper-lockfile found it stale but cannot remove a lock with a record in it.
      if (errorCode(error) !== 'ELOCKED' && errorCode(error) !== 'ENOTEMPTY') {
        // Made by this try but not handed over (proper-lockfile failed after its mkdir).
        attempt.release(lockDir)
        throw error
      }
      if (takeOverIfFree(lockDir, staleMs) === 'free' && freeRetries++ < FREE_RETRIES) continue
      if (waited >= waits) throw Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED' })
      await pause(waited++)
    }
  }
}

/** Runs `fn` while holding the lock of `file` (the file itself need not exist). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  onFile(path.dirname(file), 'write', () => fs.mkdirSync(path.dirname(file), { recursive: true }))
  const lockDir = `${path.resolve(file)}.lock`
  let compromised: Error | null = null
  let held: Awaited<ReturnType<typeof takeLock>>
  try {
    held = await takeLock(file, options.staleMs ?? STALE_MS, options.waits ?? WAITS, (error) => {
      compromised = error
    })
  } catch (error) {
    throw new SettingsLockError(
      errorCode(error) === 'ELOCKED'
        ? `Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`
        : describeFileFailure(lockDir, 'write', error),
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
    // Once proper-lockfile found the lock changed, a waiter may be moving it aside this moment (it
    // looked stale): a release could race that rename, so the lock is left to the waiters' rules.
    if (!compromised) held.attempt.release(lockDir)
    // Stops proper-lockfile's refreshes (and removes the lock where release() could not).
    await held.unlock().catch(() => undefined)
  }
}
