import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { addConnection, watchProject } from './edit'
import { type LockOptions, SettingsLockError, STALE_MS, withFileLock } from './lock'
import { openSettings } from './store'

const helper = fileURLToPath(new URL('./test-lock-holder.ts', import.meta.url))
let dir: string
let file: string
let lockDir: string
const children: ChildProcess[] = []

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-lock-'))
  file = path.join(dir, 'state.json')
  lockDir = `${file}.lock`
})

afterEach(() => {
  vi.restoreAllMocks()
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
})

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/**
 * Under mutation testing the children run the mutant this test runs: Stryker marks it on a global,
 * which its instrumented code reads from this variable where the global is unset (a new process).
 */
function activeMutant(): Record<string, string> {
  const mutant = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__?.activeMutant
  return mutant === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: mutant }
}

/** A child process holding the lock of `target` until released (a line on its stdin) or killed. */
async function holder(target: string, log: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', helper, 'hold', target, log], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...activeMutant() }
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s
      if (out.includes('inside\n')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`holder exited ${code} before taking the lock: ${err}`)))
  })
  return child
}

/** Dates `target` `ms` from now (negative: in the past). */
function dateBy(target: string, ms: number): void {
  const at = new Date(Date.now() + ms)
  fs.utimesSync(target, at, at)
}

const lines = (log: string) => fs.readFileSync(log, 'utf8').trim().split('\n')

describe('a holder that was killed', () => {
  it('while holding the lock of the settings: the next write waits until the lock is stale, then succeeds and keeps what was there', async () => {
    const store = await openSettings({ dir })
    await store.update((draft) => void addConnection(draft, { baseUrl: 'https://api.example.com' }, 'c1'))
    const config = path.join(dir, 'config.json')
    const child = await holder(config, path.join(dir, 'log'))
    child.kill('SIGKILL')
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' })
    const refreshed = fs.statSync(`${config}.lock`).mtimeMs

    let waited = 0
    await store.update((draft) => {
      waited = Date.now() - refreshed
      watchProject(draft, 'c1', 'p1', new Date())
    })
    expect(waited).toBeGreaterThan(STALE_MS)
    const reopened = (await openSettings({ dir })).read()
    expect(reopened.connections.map((c) => c.id)).toEqual(['c1'])
    expect(reopened.watched.c1?.map((p) => p.projectId)).toEqual(['p1'])
    expect(fs.existsSync(`${config}.lock`)).toBe(false)
  }, 30_000)

  it('while holding the lock of the settings: the next start opens at once, without waiting for the lock or touching it', async () => {
    const store = await openSettings({ dir })
    await store.update((draft) => void addConnection(draft, { baseUrl: 'https://api.example.com' }, 'c1'))
    const config = path.join(dir, 'config.json')
    const lastGood = path.join(dir, 'config.last-good.json')
    const child = await holder(config, path.join(dir, 'log'))
    child.kill('SIGKILL')
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' })
    const left = fs.statSync(`${config}.lock`).mtimeMs
    fs.rmSync(lastGood)

    const reopened = await openSettings({ dir })
    // Had it waited for the lock to go stale and taken it, its release would have removed the directory.
    expect(fs.statSync(`${config}.lock`).mtimeMs).toBe(left)
    expect(reopened.read().connections.map((c) => c.id)).toEqual(['c1'])
    expect(fs.readFileSync(lastGood).equals(fs.readFileSync(config))).toBe(true)
  }, 30_000)

  it('its lock is waited on while fresh, and taken at once once older than the stale time', async () => {
    fs.mkdirSync(lockDir)
    const error = await withFileLock(file, () => undefined, { waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect(fs.existsSync(lockDir)).toBe(true)
    dateBy(lockDir, -STALE_MS - 1_000)
    expect(await withFileLock(file, () => 'inside', { waits: 0 })).toBe('inside')
    expect(fs.existsSync(lockDir)).toBe(false)
  })
})

describe('a holder that is alive', () => {
  it('is not taken over: a taker that will not wait is told so in one line, and runs nothing', async () => {
    await holder(file, path.join(dir, 'log'))
    let ran = false
    const error = await withFileLock(file, () => (ran = true), { waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).message).toBe(
      `Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`
    )
    // proper-lockfile's own words for a held lock, kept as the cause.
    expect((error as Error).cause).toMatchObject({ code: 'ELOCKED', message: 'Lock file is already being held' })
    expect(ran).toBe(false)
    expect(fs.existsSync(lockDir)).toBe(true)
  })

  it('a damaged file at open is kept aside and repaired under the lock, once the holder has left', async () => {
    const config = path.join(dir, 'config.json')
    fs.writeFileSync(config, '{"theme": ')
    const child = await holder(config, path.join(dir, 'log'))
    const found = nextLookAt(`${config}.lock`)
    const opening = openSettings({ dir })
    const first = await Promise.race([found.then(() => 'found the lock held'), opening.then(() => 'opened')])
    expect(first).toBe('found the lock held')
    expect(fs.readFileSync(config, 'utf8')).toBe('{"theme": ')
    expect(fs.readdirSync(dir).sort()).toEqual(['config.json', 'config.json.lock', 'log'])
    child.stdin!.write('release\n')
    const store = await opening
    expect(store.takeNotices()).toHaveLength(1)
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('config.json.corrupt-'))).toHaveLength(1)
    expect(fs.existsSync(`${config}.lock`)).toBe(false)
  })

  it('the next taker comes in only after the holder has left', async () => {
    const log = path.join(dir, 'log')
    const child = await holder(file, log)
    const next = withFileLock(file, () => fs.appendFileSync(log, 'parent in\n'))
    child.stdin!.write('release\n')
    await next
    expect(await exited(child)).toEqual({ code: 0, signal: null })
    expect(lines(log)).toEqual(['child in', 'child out', 'parent in'])
    expect(fs.readdirSync(dir)).toEqual(['log'])
  })
})

/** Resolves once proper-lockfile's look at `target` before a refresh (a stat through graceful-fs, its fs) has called back. */
function nextLookAt(target: string): Promise<void> {
  const lockFs = createRequire(import.meta.url)('graceful-fs') as typeof fs
  const stat = lockFs.stat
  return new Promise((resolve) => {
    const spy = vi.spyOn(lockFs, 'stat').mockImplementation(((looked: fs.PathLike, ...rest: unknown[]) => {
      const done = rest.pop() as (...args: unknown[]) => void
      ;(stat as (...args: unknown[]) => void)(looked, ...rest, (...args: unknown[]) => {
        done(...args)
        if (String(looked) === target) {
          spy.mockRestore()
          resolve()
        }
      })
    }) as unknown as typeof fs.stat)
  })
}

describe('losing the lock while holding it', () => {
  it('re-dated while inside (a touch, a backup tool): the holder is told it lost it, and leaves the lock to the stale rule', async () => {
    const error = await withFileLock(file, async () => {
      const looked = nextLookAt(lockDir)
      fs.utimesSync(lockDir, new Date(0), new Date(0))
      await looked
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).message).toBe(
      `Lost the lock of ${file} while writing: Unable to update lock within the stale threshold`
    )
    expect(fs.existsSync(lockDir)).toBe(true)
  })

  it("taken over while inside: the holder is told so once it is done, and leaves the new holder's lock in place", async () => {
    const error = await withFileLock(file, async () => {
      const looked = nextLookAt(lockDir)
      // Another process, finding this lock stale (this one stalled), removed it and made its own.
      fs.rmdirSync(lockDir)
      fs.mkdirSync(lockDir)
      fs.writeFileSync(path.join(lockDir, 'other'), '')
      dateBy(lockDir, -60_000) // another mtime than the one this holder set, whatever the clock's grain
      await looked
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect(fs.readdirSync(lockDir)).toEqual(['other'])
  })
})

describe('when the lock cannot be had', () => {
  it("the file's folder is made when it is missing; one that cannot be made is named to the user", async () => {
    expect(await withFileLock(path.join(dir, 'new', 'state.json'), () => 'inside')).toBe('inside')
    fs.writeFileSync(path.join(dir, 'blocked'), '')
    const error = await withFileLock(path.join(dir, 'blocked', 'state.json'), () => 'inside').catch((e: unknown) => e)
    expect((error as Error).message).toBe(
      `Cannot write ${path.join(dir, 'blocked')}: a directory on its path is a file; nothing was changed.`
    )
  })

  it('a lock that cannot be made: the user is told why at once, not after the waits, and the cause is kept', async () => {
    // The file's name fits; its lock's, five characters longer, does not.
    const long = path.join(dir, 'x'.repeat(251))
    let ran = false
    const error = await withFileLock(long, () => (ran = true)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).name).toBe('SettingsLockError')
    expect((error as Error).message).toBe(
      `Cannot write ${long}.lock: ENAMETOOLONG: name too long, mkdir '${long}.lock'; nothing was changed.`
    )
    expect((error as Error).cause).toMatchObject({ code: 'ENAMETOOLONG' })
    expect(ran).toBe(false)
  })

  /** Waits for a lock held by a live holder, on the test's clock: the pauses, their time in all, and the error. */
  async function waitOut(options: LockOptions): Promise<{ pauses: number; ms: number; error: unknown }> {
    fs.mkdirSync(lockDir)
    // Dated ahead, so that it stays fresh however far the test's clock runs.
    dateBy(lockDir, 3_600_000)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const start = Date.now()
      const state: { ended?: { error: unknown } } = {}
      void withFileLock(file, () => undefined, options).then(
        () => (state.ended = { error: null }),
        (error: unknown) => (state.ended = { error })
      )
      let pauses = 0
      while (!state.ended && pauses <= 1_000) {
        // A pause is a timer; otherwise the next try is at work (real file operations).
        if (vi.getTimerCount() > 0) {
          pauses++
          vi.advanceTimersToNextTimer()
        } else await new Promise((resolve) => setImmediate(resolve))
      }
      return { pauses, ms: Date.now() - start, error: state.ended?.error }
    } finally {
      vi.useRealTimers()
    }
  }

  it('gives up after as many pauses as it was told to wait, none when told none', async () => {
    const none = await waitOut({ waits: 0 })
    expect(none.error).toBeInstanceOf(SettingsLockError)
    expect(none.pauses).toBe(0)
    fs.rmSync(lockDir, { recursive: true })
    const five = await waitOut({ waits: 5 })
    expect(five.error).toBeInstanceOf(SettingsLockError)
    expect(five.pauses).toBe(5)
  })

  it('by default, waits about 27 s in all (growing pauses), well past the stale time, before giving up', async () => {
    const { error, ms } = await waitOut({})
    expect(error).toBeInstanceOf(SettingsLockError)
    expect(ms).toBeGreaterThanOrEqual(26_000)
    expect(ms).toBeLessThan(28_000)
  })
})
