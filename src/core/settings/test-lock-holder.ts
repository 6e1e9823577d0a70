// Test helper run as a child process, to lock a file from another process for real:
//   hold FILE LOG        takes the lock, appends 'child in' to LOG, prints 'inside', and holds the
//                        lock until a line comes on stdin (or it is killed); then appends 'child out'.
//   exclusive FILE COUNT takes the lock COUNT times (the stale time an hour, so only a dead holder's
//                        lock is taken over); each time, inside, it makes `FILE.inside` and removes it
//                        after a pause, so a second process inside at once fails to make it and exits 1.
//   die-taking FILE      is killed (SIGKILL) while taking the lock: right after the lock's directory
//                        is made, when proper-lockfile first sets its mtime, before the lock is its.
//   die-releasing FILE   is killed (SIGKILL) while releasing the lock, at its first removal of a
//                        directory.
//   running PID          prints whether a process has PID, as pidRunning sees it from this process.
//   take FILE            takes the lock once, not waiting on a held one, and prints 'took' or why not.
import fs from 'node:fs'
import readline from 'node:readline'
import { withFileLock } from './lock'
import { pidRunning } from './lock-holder'

const [mode, file, arg = ''] = process.argv.slice(2)
if (!file)
  throw new Error(
    'usage: test-lock-holder hold FILE LOG | exclusive FILE COUNT | die-taking FILE | die-releasing FILE | running PID | take FILE'
  )

async function hold(log: string): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin })
  const released = new Promise<void>((resolve) => lines.once('line', () => resolve()))
  await withFileLock(file!, async () => {
    fs.appendFileSync(log, 'child in\n')
    process.stdout.write('inside\n')
    await released
    fs.appendFileSync(log, 'child out\n')
  })
  lines.close()
}

async function exclusive(count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    await withFileLock(
      file!,
      async () => {
        fs.writeFileSync(`${file}.inside`, String(process.pid), { flag: 'wx' })
        await new Promise((resolve) => setTimeout(resolve, 2))
        fs.unlinkSync(`${file}.inside`)
      },
      { staleMs: 3_600_000 }
    )
  }
}

async function dieTaking(): Promise<void> {
  fs.utimes = (() => process.kill(process.pid, 'SIGKILL')) as unknown as typeof fs.utimes
  await withFileLock(file!, () => undefined)
}

async function dieReleasing(): Promise<void> {
  const die = (() => process.kill(process.pid, 'SIGKILL')) as never
  await withFileLock(file!, () => {
    Object.assign(fs, { rmSync: die, rmdirSync: die, rmdir: die })
  })
}

if (mode === 'hold') await hold(arg)
else if (mode === 'exclusive') await exclusive(Number(arg))
else if (mode === 'die-taking') await dieTaking()
else if (mode === 'die-releasing') await dieReleasing()
else if (mode === 'take') {
  await withFileLock(file, () => process.stdout.write('took'), { waits: 0 }).catch((error: unknown) =>
    process.stdout.write((error as Error).message)
  )
} else if (mode === 'running') process.stdout.write(String(pidRunning(Number(file))))
else throw new Error(`unknown mode ${mode}`)
