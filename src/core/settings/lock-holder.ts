// Who holds a settings file's lock: a record written inside the lock's directory, so that a waiter
// can tell a holder that died (SIGKILL, a crash) from one that is still at work, and take a dead
// holder's lock at once instead of once its mtime is stale. "Dead" must be certain: the record is
// from this machine, this boot and this pid namespace (containers and other hosts may share the
// home directory), and no process has its pid. Anything less (a reused pid, another host, a record
// that is missing or cannot be read) is not certain, and the mtime rule decides (lock.ts).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import { z } from 'zod'

export const HOLDER_FILE = 'holder.json'

/** Where a process runs, as far as it matters to whether another process can see its pid. */
export interface Machine {
  host: string
  /** Linux's id of this boot; null elsewhere. */
  bootId: string | null
  /** When this machine booted (ms since the epoch, to about a second): the boot where there is no bootId. */
  bootAt: number
  /** Linux's pid namespace (`pid:[4026531836]`); null elsewhere. */
  pidNamespace: string | null
}

const holderSchema = z.object({
  // kill(0) or kill(-n) would ask about a process group: only a plain pid is a holder.
  pid: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
  host: z.string().max(255),
  bootId: z.string().max(64).nullable(),
  bootAt: z.number().finite(),
  pidNamespace: z.string().max(64).nullable(),
  // Names the lock once taken over (lock.ts), so it must be safe in a file name.
  token: z.string().regex(/^[0-9a-f]{32}$/)
})

export type Holder = z.infer<typeof holderSchema>

/** Two boot times this close are one boot (uptime is read in whole seconds on some systems). */
const SAME_BOOT_MS = 5_000

function readOrNull(read: () => string): string | null {
  try {
    return read().trim() || null
  } catch {
    return null
  }
}

/** A fresh look at this machine (thisMachine keeps the first). */
export function lookAtMachine(): Machine {
  return {
    host: os.hostname(),
    bootId:
      process.platform === 'linux'
        ? readOrNull(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'))
        : null,
    bootAt: Math.round(Date.now() - os.uptime() * 1000),
    pidNamespace: process.platform === 'linux' ? readOrNull(() => fs.readlinkSync('/proc/self/ns/pid')) : null
  }
}

let here: Machine | null = null

export function thisMachine(): Machine {
  here ??= lookAtMachine()
  return here
}

/** This process as a lock's holder; a new token for each lock taken, so no two records are alike. */
export function holderRecord(machine: Machine = thisMachine()): string {
  const holder: Holder = { pid: process.pid, ...machine, token: crypto.randomBytes(16).toString('hex') }
  return `${JSON.stringify(holder)}\n`
}

/** The record, or null when it is not one (cut short, garbled, from elsewhere). */
export function readHolder(bytes: Buffer): Holder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(bytes.toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** true: a process has this pid (EPERM: one that is not ours); false: none has; null: cannot tell. */
export function pidRunning(pid: number): boolean | null {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ESRCH') return false
    if (code === 'EPERM') return true
    return null
  }
}

/** Whether the holder has certainly ended: seen from the same machine, boot and pid namespace, and its pid is gone. */
export function certainlyDead(
  holder: Holder,
  machine: Machine = thisMachine(),
  running: (pid: number) => boolean | null = pidRunning
): boolean {
  if (holder.host !== machine.host || holder.pidNamespace !== machine.pidNamespace) return false
  const sameBoot =
    machine.bootId !== null || holder.bootId !== null
      ? holder.bootId === machine.bootId
      : Math.abs(holder.bootAt - machine.bootAt) < SAME_BOOT_MS
  return sameBoot && running(holder.pid) === false
}
