import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsLockError, takeOverIfFree, withFileLock } from './lock'
import { certainlyDead, HOLDER_FILE, holderRecord, readHolder, thisMachine, type Holder, type Machine } from './lock-holder'

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
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
})

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

function run(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', helper, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
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
    expect(ends.map((end, n) => ({ ...end, err: errs[n]!() }))).toEqual([0, 1, 2].map(() => ({ code: 0, signal: null, err: '' })))
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
    fs.mkdirSync(lockDir)
    fs.writeFileSync(path.join(lockDir, HOLDER_FILE), JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid() }))
    expect(takeOverIfFree(lockDir, HOUR)).toBe('free')
    expect(fs.existsSync(old)).toBe(false)
    expect(fs.existsSync(released)).toBe(false)
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
    expect((error as Error).message).toBe(`Could not lock ${file}: another Agent Tray process has held it for too long; nothing was changed.`)
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
        for (let n = 0; n < 200 && fs.statSync(lockDir).mtimeMs === first; n++) await new Promise((resolve) => setTimeout(resolve, 50))
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
    fs.writeFileSync(path.join(lockDir, HOLDER_FILE), JSON.stringify({ ...(JSON.parse(holderRecord()) as Holder), pid: await deadPid(), host: 'elsewhere' }))
    await heldWhileFresh()
    await takenOnceStale()
  })
})

describe('certainlyDead', () => {
  const machine: Machine = { host: 'box', bootId: 'boot-1', bootAt: 1_700_000_000_000, pidNamespace: 'pid:[4026531836]' }
  const record = (changes: Partial<Holder> = {}): Holder => ({ pid: 4242, ...machine, token: 'f'.repeat(32), ...changes })
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
    expect(certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt + 1_500 }), noId, gone)).toBe(true)
    expect(certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt + 60_000 }), noId, gone)).toBe(false)
    // Five seconds apart is another boot.
    expect(certainlyDead(record({ bootId: null, pidNamespace: null, bootAt: machine.bootAt - 5_000 }), noId, gone)).toBe(false)
    // A holder that read a boot id, seen from a machine that reads none: not the same boot, whatever the times.
    expect(certainlyDead(record({ pidNamespace: null }), noId, gone)).toBe(false)
  })

  it('asks the system about the pid: this process is running, an ended one is not', async () => {
    const here = thisMachine()
    expect(certainlyDead(record({ ...here, pid: process.pid }), here)).toBe(false)
    expect(certainlyDead(record({ ...here, pid: await deadPid() }), here)).toBe(true)
  })

  it('reads only a whole record with a plain pid and a file-name-safe token', () => {
    const good = JSON.parse(holderRecord()) as Holder
    expect(readHolder(Buffer.from(JSON.stringify(good)))).toEqual(good)
    for (const bad of [{ pid: -1 }, { pid: 0 }, { pid: 1.5 }, { token: '../../x' }, { host: undefined }]) {
      expect(readHolder(Buffer.from(JSON.stringify({ ...good, ...bad })))).toBeNull()
    }
    expect(readHolder(Buffer.from('{"pid": 12'))).toBeNull()
  })
})
