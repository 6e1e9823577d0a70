import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type LockOptions, SettingsLockError, takeOverIfFree, withFileLock } from './lock'
import {
  certainlyDead,
  type Holder,
  HOLDER_FILE,
  holderRecord,
  lookAtMachine,
  type Machine,
  pidRunning,
  readHolder,
  thisMachine
} from './lock-holder'
import { anotherUser, runAs } from './test-as-other-user'

const helper = fileURLToPath(new URL('./test-lock-holder.ts', import.meta.url))
const HOUR = 3_600_000
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

function run(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', helper, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...activeMutant() }
  })
  children.push(child)
  return child
}

/** A child process holding the lock of `file` until released (a line on its stdin) or killed. */
async function holder(log: string): Promise<ChildProcess> {
  const child = run(['hold', file, log])
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

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await exited(child)
  return child.pid!
}

function age(target: string, ms: number): void {
  const at = new Date(Date.now() - ms)
  fs.utimesSync(target, at, at)
}

/** Dates `target` to a whole second, so its mtimeMs is exact. */
function dateTo(target: string, seconds: number): void {
  fs.utimesSync(target, seconds, seconds)
}

async function deadRecord(): Promise<string> {
  return JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid() })
}

/** A lock holding `record` (none: an empty lock) and any other `files`. */
function makeLock(record: string | null, files: string[] = []): void {
  fs.mkdirSync(lockDir)
  if (record !== null) fs.writeFileSync(path.join(lockDir, HOLDER_FILE), record)
  for (const name of files) fs.writeFileSync(path.join(lockDir, name), '')
}

const taken = () => fs.readdirSync(dir).filter((name) => name.endsWith('.taken'))
const lines = (log: string) => fs.readFileSync(log, 'utf8').trim().split('\n')

describe('a holder that died', () => {
  it('killed with SIGKILL while holding the lock: the next taker gets it at once, not once the lock is stale', async () => {
    const child = await holder(path.join(dir, 'log'))
    child.kill('SIGKILL')
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' })
    expect(readHolder(fs.readFileSync(path.join(lockDir, HOLDER_FILE)))?.pid).toBe(child.pid)

    // An hour's stale time and no waiting: only the dead holder's record can let it in.
    const ran = await withFileLock(file, () => 'inside', { staleMs: HOUR, waits: 0 })
    expect(ran).toBe('inside')
    expect(fs.existsSync(lockDir)).toBe(false)
    const [aside] = taken()
    expect(taken()).toHaveLength(1)
    expect(readHolder(fs.readFileSync(path.join(dir, aside!, HOLDER_FILE)))?.pid).toBe(child.pid)
  })

  it('killed while taking the lock, before it was handed the lock: its record is already there, so the lock is taken at once', async () => {
    const child = run(['die-taking', file])
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' })
    expect(readHolder(fs.readFileSync(path.join(lockDir, HOLDER_FILE)))?.pid).toBe(child.pid)
    expect(await withFileLock(file, () => 'inside', { staleMs: HOUR, waits: 0 })).toBe('inside')
  })

  it('killed while releasing the lock: it leaves no lock behind, not even an empty one', async () => {
    const child = run(['die-releasing', file])
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' })
    expect(fs.existsSync(lockDir)).toBe(false)
    expect(await withFileLock(file, () => 'inside', { staleMs: HOUR, waits: 0 })).toBe('inside')
  })

  it('three processes finding the same dead lock at once: it is taken over once, and no two are ever inside together', async () => {
    const child = await holder(path.join(dir, 'log'))
    child.kill('SIGKILL')
    await exited(child)
    const racers = [0, 1, 2].map(() => run(['exclusive', file, '20']))
    const errs = racers.map((racer) => {
      let err = ''
      racer.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s))
      return () => err
    })
    const ends = await Promise.all(racers.map(exited))
    expect(ends.map((end, n) => ({ ...end, err: errs[n]!() }))).toEqual(
      [0, 1, 2].map(() => ({ code: 0, signal: null, err: '' }))
    )
    expect(taken()).toHaveLength(1)
    expect(fs.readdirSync(dir).filter((name) => !name.endsWith('.taken'))).toEqual(['log'])
  }, 60_000)

  it('a second waiter that judged the same dead lock finds its name taken, and leaves the next lock where it is', async () => {
    const record = JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid() })
    fs.mkdirSync(lockDir)
    fs.writeFileSync(path.join(lockDir, HOLDER_FILE), record)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(fs.existsSync(lockDir)).toBe(false)

    // The same record again, as the second waiter read it before the first moved the lock away.
    fs.mkdirSync(lockDir)
    fs.writeFileSync(path.join(lockDir, HOLDER_FILE), record)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    expect(fs.readFileSync(path.join(lockDir, HOLDER_FILE), 'utf8')).toBe(record)
    expect(taken()).toHaveLength(1)
  })

  it('locks taken over are kept an hour, then removed at the next takeover, with any a killed process left while releasing', async () => {
    const old = `${lockDir}.${'a'.repeat(32)}.taken`
    const recent = `${lockDir}.${'b'.repeat(32)}.taken`
    const released = `${lockDir}.${'c'.repeat(32)}.released`
    for (const aside of [old, recent, released]) {
      fs.mkdirSync(aside)
      fs.writeFileSync(path.join(aside, HOLDER_FILE), '{}')
    }
    age(old, HOUR + 60_000)
    age(recent, HOUR - 60_000)
    // A leftover that cannot be looked at (a link to nothing) is removed all the same.
    const dangling = `${lockDir}.${'e'.repeat(32)}.released`
    fs.symlinkSync(path.join(dir, 'nowhere'), dangling)
    fs.mkdirSync(lockDir)
    fs.writeFileSync(
      path.join(lockDir, HOLDER_FILE),
      JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid() })
    )
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(fs.existsSync(old)).toBe(false)
    expect(fs.existsSync(released)).toBe(false)
    expect(fs.readdirSync(dir)).not.toContain(path.basename(dangling))
    expect(fs.existsSync(recent)).toBe(true)
    expect(taken()).toHaveLength(2)
  })
})

describe('a holder that is alive', () => {
  it('is never taken over, however long a taker is willing to treat it as fresh', async () => {
    const child = await holder(path.join(dir, 'log'))
    let ran = false
    const error = await withFileLock(file, () => (ran = true), { staleMs: HOUR, waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).message).toBe(
      `Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`
    )
    // proper-lockfile's own words for a held lock, kept as the cause.
    expect((error as Error).cause).toMatchObject({ code: 'ELOCKED', message: 'Lock file is already being held' })
    expect(ran).toBe(false)
    expect(readHolder(fs.readFileSync(path.join(lockDir, HOLDER_FILE)))?.pid).toBe(child.pid)
    expect(taken()).toEqual([])
  })

  it('the next taker comes in only after the holder has left', async () => {
    const log = path.join(dir, 'log')
    const child = await holder(log)
    const next = withFileLock(file, () => fs.appendFileSync(log, 'parent in\n'))
    child.stdin!.write('release\n')
    await next
    expect(await exited(child)).toEqual({ code: 0, signal: null })
    expect(lines(log)).toEqual(['child in', 'child out', 'parent in'])
    expect(fs.readdirSync(dir)).toEqual(['log'])
  })

  it('holds its lock across proper-lockfile refreshes: the record written into the lock does not count as losing it', async () => {
    const refreshed = await withFileLock(
      file,
      async () => {
        const first = fs.statSync(lockDir).mtimeMs
        // proper-lockfile refreshes every 1 s at the shortest stale time (2 s); give it up to 10 s.
        for (let n = 0; n < 200 && fs.statSync(lockDir).mtimeMs === first; n++)
          await new Promise((resolve) => setTimeout(resolve, 50))
        return fs.statSync(lockDir).mtimeMs !== first
      },
      { staleMs: 2_000 }
    )
    expect(refreshed).toBe(true)
  })
})

describe('a holder that cannot be known: taken only once its lock is stale, as before', () => {
  async function heldWhileFresh(): Promise<void> {
    const error = await withFileLock(file, () => undefined, { waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect(fs.existsSync(lockDir)).toBe(true)
  }

  async function takenOnceStale(): Promise<void> {
    age(lockDir, 60_000)
    expect(await withFileLock(file, () => 'inside', { waits: 0 })).toBe('inside')
    expect(fs.existsSync(lockDir)).toBe(false)
  }

  it('an empty lock (an older Agent Tray, or a holder killed before writing its record)', async () => {
    fs.mkdirSync(lockDir)
    await heldWhileFresh()
    await takenOnceStale()
    // proper-lockfile removed it by its own stale rule: nothing was moved aside.
    expect(taken()).toEqual([])
  })

  it('a record cut short or garbled', async () => {
    fs.mkdirSync(lockDir)
    fs.writeFileSync(path.join(lockDir, HOLDER_FILE), '{"pid": 12')
    await heldWhileFresh()
    await takenOnceStale()
    expect(taken()).toHaveLength(1)
  })

  it('a dead pid recorded on another host (a home directory shared over the network)', async () => {
    fs.mkdirSync(lockDir)
    fs.writeFileSync(
      path.join(lockDir, HOLDER_FILE),
      JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid(), host: 'elsewhere' })
    )
    await heldWhileFresh()
    await takenOnceStale()
  })
})

describe('certainlyDead', () => {
  const machine: Machine = {
    host: 'box',
    bootId: 'boot-1',
    bootAt: 1_700_000_000_000,
    pidNamespace: 'pid:[4026531836]'
  }
  const record = (changes: Partial<Holder> = {}): Holder => ({
    pid: 4242,
    ...machine,
    token: 'f'.repeat(32),
    ...changes
  })
  const gone = () => false

  it('only when the pid is gone on this machine, boot and pid namespace', () => {
    expect(certainlyDead(record(), machine, gone)).toBe(true)
    expect(certainlyDead(record(), machine, () => true)).toBe(false)
    expect(certainlyDead(record(), machine, () => null)).toBe(false)
    expect(certainlyDead(record({ host: 'other' }), machine, gone)).toBe(false)
    expect(certainlyDead(record({ bootId: 'boot-2' }), machine, gone)).toBe(false)
    expect(certainlyDead(record({ bootId: null }), machine, gone)).toBe(false)
    // A container on the same host, with its own pids.
    expect(certainlyDead(record({ pidNamespace: 'pid:[4026532999]' }), machine, gone)).toBe(false)
    expect(certainlyDead(record({ pidNamespace: null }), machine, gone)).toBe(false)
  })

  it('without a boot id (macOS, Windows), by the boot time, to a few seconds', () => {
    const noId = { ...machine, bootId: null, pidNamespace: null }
    expect(
      certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt + 1_500 }), noId, gone)
    ).toBe(true)
    expect(
      certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt + 60_000 }), noId, gone)
    ).toBe(false)
    // Five seconds apart is another boot.
    expect(
      certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt - 5_000 }), noId, gone)
    ).toBe(false)
    // A holder that read a boot id, seen from a machine that reads none: not the same boot, whatever the times.
    expect(certainlyDead(record({ pidNamespace: null }), noId, gone)).toBe(false)
  })

  it('asks the system about the pid: this process is running, an ended one is not', async () => {
    const here = thisMachine()
    expect(certainlyDead(record({ ...here, pid: process.pid }), here)).toBe(false)
    expect(certainlyDead(record({ ...here, pid: await deadPid() }), here)).toBe(true)
  })

  it.runIf(process.platform === 'linux')(
    'on Linux, this machine is known by its boot id and its pid namespace, as the kernel names them',
    async () => {
      // A fresh look: thisMachine() looks once per process, and keeps what it saw.
      const here = lookAtMachine()
      // bootAt is now less uptime, to about a second.
      expect(thisMachine()).toMatchObject({ host: here.host, bootId: here.bootId, pidNamespace: here.pidNamespace })
      expect(here.bootId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(here.pidNamespace).toMatch(/^pid:\[\d+\]$/)
    }
  )

  it('this machine booted when its uptime says, to about a second (what decides the boot where there is no boot id)', () => {
    expect(Math.abs(lookAtMachine().bootAt - (Date.now() - os.uptime() * 1000))).toBeLessThan(2_000)
  })

  it('off Linux, and where /proc cannot be read, there is no boot id or pid namespace: the boot time decides', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
    Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' })
    try {
      expect(lookAtMachine()).toMatchObject({ bootId: null, pidNamespace: null })
    } finally {
      Object.defineProperty(process, 'platform', platform)
    }
    const denied = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
    }
    vi.spyOn(fs, 'readFileSync').mockImplementation(denied)
    vi.spyOn(fs, 'readlinkSync').mockImplementation(denied)
    expect(lookAtMachine()).toMatchObject({ bootId: null, pidNamespace: null })
  })

  it("a pid the system refuses to signal (EPERM: another user's) is running; a refusal it does not explain tells nothing", () => {
    const kill = vi.spyOn(process, 'kill')
    kill.mockImplementation(() => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' })
    })
    expect(pidRunning(4242)).toBe(true)
    kill.mockImplementation(() => {
      throw Object.assign(new Error('kill EINVAL'), { code: 'EINVAL' })
    })
    expect(pidRunning(4242)).toBeNull()
  })

  it('a process of another user is running, though the system refuses to signal it; an ended one is not', async () => {
    expect(pidRunning(await deadPid())).toBe(false)
    // As root, any process may be signalled: ask from a child run as nobody about this one.
    const seen =
      process.getuid?.() === 0
        ? (await runAs(anotherUser(), helper, ['running', String(process.pid)], activeMutant())).out
        : String(pidRunning(1))
    expect(seen).toBe('true')
  })

  it('reads only a whole record with a plain pid and a file-name-safe token', () => {
    const good = JSON.parse(holderRecord()) as Holder
    expect(readHolder(Buffer.from(JSON.stringify(good)))).toEqual(good)
    const edge = {
      pid: 2 ** 31 - 1,
      host: 'h'.repeat(255),
      bootId: 'b'.repeat(64),
      pidNamespace: 'n'.repeat(64),
      token: 'f'.repeat(32)
    }
    expect(readHolder(Buffer.from(JSON.stringify({ ...good, ...edge })))).toEqual({ ...good, ...edge })
    for (const bad of [
      { pid: -1 },
      { pid: 0 },
      { pid: 1.5 },
      { pid: 2 ** 31 },
      { token: '../../x' },
      { token: 'f'.repeat(33) },
      { token: `x${'f'.repeat(32)}` },
      { token: `${'f'.repeat(32)}x` },
      { token: 'F'.repeat(32) },
      { host: undefined },
      { host: 'h'.repeat(256) },
      { bootId: 'b'.repeat(65) },
      { pidNamespace: 'n'.repeat(65) },
      { bootAt: 'soon' }
    ]) {
      expect(readHolder(Buffer.from(JSON.stringify({ ...good, ...bad })))).toBeNull()
    }
    expect(readHolder(Buffer.from('{"pid": 12'))).toBeNull()
  })
})

describe('what a waiter makes of a held lock (takeOverIfFree)', () => {
  it('no lock: free', () => {
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
  })

  it('no lock at the first look: free, whatever another process makes just after (the next try meets it)', () => {
    const read = fs.readFileSync
    vi.spyOn(fs, 'readFileSync').mockImplementation(((target: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (String(target).startsWith(lockDir) && !fs.existsSync(lockDir)) makeLock(holderRecord())
      return (read as (...args: unknown[]) => unknown)(target, ...rest)
    }) as typeof fs.readFileSync)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
  })

  it('a lock that cannot be listed (a file in its place) is held while fresh, and taken over once stale', () => {
    fs.writeFileSync(lockDir, 'not a lock')
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    dateTo(lockDir, Math.floor(Date.now() / 1000) - 2 * 3600)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(fs.existsSync(lockDir)).toBe(false)
    expect(taken()).toHaveLength(1)
  })

  it("another user's stale lock that this one cannot read (made under sudo) is taken over, not waited on until giving up", async () => {
    makeLock(holderRecord(), ['more'])
    dateTo(lockDir, Math.floor(Date.now() / 1000) - 3600)
    fs.chmodSync(lockDir, 0o000)
    fs.chmodSync(dir, 0o777)
    // As root, any directory can be read: the waiter is a child run as nobody.
    const { out } = await runAs(anotherUser(), helper, ['take', file], activeMutant())
    expect(out).toBe('took')
    expect(taken()).toHaveLength(1)
    // So that it can be removed afterwards by its owner, whoever that is.
    fs.chmodSync(path.join(dir, taken()[0]!), 0o700)
  })

  it('an empty lock: held until it is more than the stale time old, then free, and left for proper-lockfile to remove', () => {
    makeLock(null)
    const at = Math.floor(Date.now() / 1000) - 60
    dateTo(lockDir, at)
    expect(takeOverIfFree(lockDir, 1_000, at * 1000 + 1_000)).toBe('held')
    expect(takeOverIfFree(lockDir, 1_000, at * 1000 + 1_001)).toBe('free')
    expect(fs.existsSync(lockDir)).toBe(true)
    expect(taken()).toEqual([])
  })

  it('a live holder whose lock is fresh: held', () => {
    makeLock(holderRecord())
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    expect(taken()).toEqual([])
  })

  it("a stale lock with something in it other than a record (a later version's) is taken over", async () => {
    makeLock(null, ['later.json'])
    age(lockDir, 60_000)
    expect(await withFileLock(file, () => 'inside', { waits: 0 })).toBe('inside')
    expect(taken()).toHaveLength(1)
  })

  it("a dead holder's lock that goes away just as it is moved aside (another waiter was first): free, and nothing is left", async () => {
    makeLock(await deadRecord())
    const rename = fs.renameSync
    vi.spyOn(fs, 'renameSync').mockImplementationOnce((from, to) => {
      rename(from, path.join(dir, 'moved by another'))
      rename(from, to)
    })
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(taken()).toEqual([])
  })

  it('a lock taken over is named by what was judged, in a file-name-safe id: two locks that differ in record, age or contents are both taken', () => {
    const at = Math.floor(Date.now() / 1000) - 60
    const judged: Array<[string | null, string[], number]> = [
      ['{"pid": 12', [], at],
      ['{"pid": 13', [], at],
      ['{"pid": 13', [], at - 1],
      [null, ['a', 'bc'], at],
      [null, ['ab', 'c'], at]
    ]
    for (const [record, files, seconds] of judged) {
      makeLock(record, files)
      dateTo(lockDir, seconds)
      expect(takeOverIfFree(lockDir, 1_000)).toBe('free')
    }
    expect(taken()).toHaveLength(judged.length)
    for (const name of taken()) expect(name).toMatch(/^state\.json\.lock\.[0-9a-f]{32}\.taken$/)
  })

  it('a lock last refreshed long ago is kept aside an hour from its takeover, so a second waiter that judged it still finds its name taken', async () => {
    const record = await deadRecord()
    makeLock(record)
    age(lockDir, 2 * HOUR)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(taken()).toHaveLength(1)
    makeLock(record)
    age(lockDir, 2 * HOUR)
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    expect(fs.readFileSync(path.join(lockDir, HOLDER_FILE), 'utf8')).toBe(record)
  })

  it('a lock taken over is removed once more than an hour old, not at the hour', async () => {
    const at = Math.floor(Date.now() / 1000) - 3 * 3600
    const hourOld = `${lockDir}.${'a'.repeat(32)}.taken`
    const older = `${lockDir}.${'b'.repeat(32)}.taken`
    for (const aside of [hourOld, older]) fs.mkdirSync(aside)
    dateTo(hourOld, at)
    dateTo(older, at - 1)
    makeLock(await deadRecord())
    expect(takeOverIfFree(lockDir, HOUR, at * 1000 + HOUR)).toBe('free')
    expect(fs.existsSync(hourOld)).toBe(true)
    expect(fs.existsSync(older)).toBe(false)
  })

  it('a leftover another waiter removed while this one tidies is passed over, and the rest are still removed', async () => {
    const old = `${lockDir}.${'b'.repeat(32)}.released`
    fs.mkdirSync(old)
    const readdir = fs.readdirSync
    vi.spyOn(fs, 'readdirSync').mockImplementation(((target: fs.PathLike, ...rest: unknown[]) => {
      const names = (readdir as (...args: unknown[]) => string[])(target, ...rest)
      // Listed, then removed by another waiter before this one comes to it.
      return String(target) === dir ? [`state.json.lock.${'a'.repeat(32)}.released`, ...names] : names
    }) as typeof fs.readdirSync)
    makeLock(await deadRecord())
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(fs.existsSync(old)).toBe(false)
  })

  it("only this lock's leftovers are removed: other files in its folder stay, however old", async () => {
    const others = ['notes.released', 'backup.taken', 'state.json.lock.copy']
    for (const name of others) {
      fs.writeFileSync(path.join(dir, name), '')
      age(path.join(dir, name), 2 * HOUR)
    }
    makeLock(await deadRecord())
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    for (const name of others) expect(fs.existsSync(path.join(dir, name))).toBe(true)
  })
})

describe('a lock that changes while a waiter reads its record', () => {
  // The record is a FIFO, so the read waits for the shell, which changes the lock (as another
  // process would) before it writes the record: the change falls between the waiter's two looks.
  function lockWithFifo(): void {
    makeLock(null)
    execFileSync('mkfifo', [path.join(lockDir, HOLDER_FILE)])
  }

  function changedWhileRead(record: string, change: string, ...args: string[]): ChildProcess {
    const child = spawn(
      'sh',
      ['-c', `exec 3>"$1/${HOLDER_FILE}"\n${change}\nprintf '%s' "$2" >&3`, 'sh', lockDir, record, ...args],
      { stdio: 'ignore' }
    )
    children.push(child)
    return child
  }

  it('gone meanwhile: free', async () => {
    const record = await deadRecord()
    lockWithFifo()
    const child = changedWhileRead(record, 'mv "$1" "$1.gone"')
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
  })

  it('refreshed meanwhile by its holder: held, though the record read says its holder died', async () => {
    const record = await deadRecord()
    lockWithFifo()
    age(lockDir, 60_000)
    const child = changedWhileRead(record, 'touch "$1"')
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
    expect(fs.readdirSync(dir)).toEqual(['state.json.lock'])
  })

  it('taken and remade meanwhile, with the same mtime: held, and the new lock stays', async () => {
    const record = await deadRecord()
    lockWithFifo()
    const at = Math.floor(Date.now() / 1000) - 60
    dateTo(lockDir, at)
    const child = changedWhileRead(record, 'mv "$1" "$1.old" && mkdir "$1" && touch -d "@$3" "$1"', String(at))
    expect(takeOverIfFree(lockDir, HOUR)).toBe('held')
    expect(await exited(child)).toEqual({ code: 0, signal: null })
    expect(fs.statSync(lockDir).mtimeMs).toBe(at * 1000)
    expect(fs.readdirSync(lockDir)).toEqual([])
  })
})

describe('holding the lock', () => {
  it("while held, the lock holds this process's record, readable by its user only; once left, nothing remains", async () => {
    const seen = await withFileLock(file, () => {
      const record = path.join(lockDir, HOLDER_FILE)
      return { holder: readHolder(fs.readFileSync(record)), mode: fs.statSync(record).mode & 0o777 }
    })
    expect(seen.holder).toMatchObject({ pid: process.pid, ...thisMachine() })
    expect(seen.mode).toBe(0o600)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("a holder leaving after its lock was taken over (before it noticed) leaves the new holder's lock in place", async () => {
    const other = holderRecord()
    await withFileLock(
      file,
      () => {
        // Another process, finding this lock stale (this one stalled), moved it aside and made its own.
        fs.renameSync(lockDir, `${lockDir}.${'d'.repeat(32)}.taken`)
        makeLock(other)
      },
      { staleMs: HOUR }
    )
    expect(fs.readFileSync(path.join(lockDir, HOLDER_FILE), 'utf8')).toBe(other)
  })

  it("a holder leaving after its lock was taken over and remade without a record (a later version's) leaves that lock in place", async () => {
    await withFileLock(
      file,
      () => {
        fs.renameSync(lockDir, `${lockDir}.${'d'.repeat(32)}.taken`)
        makeLock(null, ['later.json'])
      },
      { staleMs: HOUR }
    )
    expect(fs.readdirSync(lockDir)).toEqual(['later.json'])
  })

  it('where the lock cannot be renamed away (Windows, while another process reads the record), its record is removed, then the lock', async () => {
    const rename = fs.renameSync
    vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      if (String(to).endsWith('.released'))
        throw Object.assign(new Error('EPERM: operation not permitted, rename'), { code: 'EPERM' })
      rename(from, to)
    })
    expect(await withFileLock(file, () => 'inside')).toBe('inside')
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('once its lock is renamed away, a holder leaving removes no lock another process makes in that instant', async () => {
    const rmSync = fs.rmSync
    vi.spyOn(fs, 'rmSync').mockImplementation((target, options) => {
      rmSync(target, options)
      // Another process's mkdir, its record not yet written: proper-lockfile's own rmdir would remove it.
      if (String(target).endsWith('.released')) fs.mkdirSync(lockDir)
    })
    await withFileLock(file, () => undefined)
    expect(fs.readdirSync(dir)).toEqual(['state.json.lock'])
  })

  it("a holder whose lock was only re-dated while inside (a touch, a backup tool) is told it lost it, and leaves its lock to the waiters' rules", async () => {
    const error = await withFileLock(
      file,
      async () => {
        const looked = nextLookAt(lockDir)
        fs.utimesSync(lockDir, new Date(0), new Date(0))
        await looked
      },
      { staleMs: 2_000 }
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).message).toBe(
      `Lost the lock of ${file} while writing: Unable to update lock within the stale threshold`
    )
    // Still this holder's: a waiter may have been moving it aside, so it is not removed now (stale, it is taken at once).
    expect(readHolder(fs.readFileSync(path.join(lockDir, HOLDER_FILE)))?.pid).toBe(process.pid)
  })

  it("a holder that lost its lock while inside is told so once it is done, and leaves the new holder's lock in place", async () => {
    const other = holderRecord()
    const error = await withFileLock(
      file,
      async () => {
        const looked = nextLookAt(lockDir)
        fs.renameSync(lockDir, `${lockDir}.${'d'.repeat(32)}.taken`)
        makeLock(other)
        // proper-lockfile's next refresh (1 s at a 2 s stale time) finds the lock is not its own.
        await looked
      },
      { staleMs: 2_000 }
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).message).toBe(
      `Lost the lock of ${file} while writing: Unable to update lock within the stale threshold`
    )
    expect(fs.readFileSync(path.join(lockDir, HOLDER_FILE), 'utf8')).toBe(other)
  })
})

/** Resolves once an fs.stat of `target` (proper-lockfile's look before a refresh) has called back. */
function nextLookAt(target: string): Promise<void> {
  const stat = fs.stat
  return new Promise((resolve) => {
    const spy = vi.spyOn(fs, 'stat').mockImplementation(((looked: fs.PathLike, ...rest: unknown[]) => {
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

describe('when the lock cannot be had', () => {
  it("the file's folder is made when it is missing; one that cannot be made is named to the user", async () => {
    expect(await withFileLock(path.join(dir, 'new', 'state.json'), () => 'inside')).toBe('inside')
    fs.writeFileSync(path.join(dir, 'blocked'), '')
    const error = await withFileLock(path.join(dir, 'blocked', 'state.json'), () => 'inside').catch((e: unknown) => e)
    expect((error as Error).message).toBe(
      `Cannot write ${path.join(dir, 'blocked')}: a directory on its path is a file; nothing was changed.`
    )
  })

  it('a lock that cannot be made: the user is told why, and the cause is kept', async () => {
    // The file's name fits; its lock's, five characters longer, does not.
    const long = path.join(dir, 'x'.repeat(251))
    let ran = false
    const error = await withFileLock(long, () => (ran = true), { waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    expect((error as Error).name).toBe('SettingsLockError')
    expect((error as Error).message).toBe(
      `Cannot write ${long}.lock: ENAMETOOLONG: name too long, mkdir '${long}.lock'; nothing was changed.`
    )
    expect((error as Error).cause).toMatchObject({ code: 'ENAMETOOLONG' })
    expect(ran).toBe(false)
  })

  it('a lock that is gone each time it is looked at (a dangling link in its place) ends in an error after ten immediate tries more, not a busy loop', async () => {
    fs.symlinkSync(path.join(dir, 'nowhere'), lockDir)
    const statSync = fs.statSync
    let looks = 0
    vi.spyOn(fs, 'statSync').mockImplementation(((target: fs.PathLike, ...rest: unknown[]) => {
      if (String(target) === lockDir) looks++
      return (statSync as (...args: unknown[]) => unknown)(target, ...rest)
    }) as typeof fs.statSync)
    const error = await withFileLock(file, () => undefined, { waits: 0 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsLockError)
    // One look after each try: the first and ten more, none of them a wait.
    expect(looks).toBe(11)
  }, 10_000)

  /** Waits for a lock held by a live holder (this process), on the test's clock: the pauses, their time in all, and the error. */
  async function waitOut(options: LockOptions): Promise<{ pauses: number; ms: number; error: unknown }> {
    makeLock(holderRecord())
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const start = Date.now()
      const state: { ended?: { error: unknown } } = {}
      void withFileLock(file, () => undefined, { staleMs: HOUR, ...options }).then(
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

  it('by default, waits 27 to 53 s in all (growing pauses, jittered) before giving up', async () => {
    const { error, ms } = await waitOut({})
    expect(error).toBeInstanceOf(SettingsLockError)
    expect(ms).toBeGreaterThanOrEqual(26_000)
    expect(ms).toBeLessThan(54_000)
  })
})
