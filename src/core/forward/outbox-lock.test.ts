// The outbox's lock in one process (outbox.writers.test.ts takes it from two): one holder at a
// time, free again once released, and a lock that cannot be made is an error, not "held elsewhere".
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import {
  FORWARDING_ELSEWHERE,
  FORWARDING_ELSEWHERE_APP,
  FORWARDING_ELSEWHERE_COMMAND,
  lockOutbox,
  outboxLocked
} from './outbox-lock'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function outboxFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-lock-'))
  dirs.push(dir)
  // In a directory not made yet: the lock makes it.
  return path.join(dir, 'state', 'forward-outbox.json')
}

it('one holder at a time; released, it is free for the next', async () => {
  const file = outboxFile()
  const first = await lockOutbox(file, () => {})
  expect(first).not.toBeNull()
  expect(fs.existsSync(`${file}.lock`)).toBe(true)
  await expect(lockOutbox(file, () => {})).resolves.toBeNull()
  await first!.release()
  expect(fs.existsSync(`${file}.lock`)).toBe(false)
  const second = await lockOutbox(file, () => {})
  expect(second).not.toBeNull()
  await second!.release()
  // A second release is harmless.
  await expect(second!.release()).resolves.toBeUndefined()
})

it('outboxLocked: held while a live holder keeps it, free once released, and a stale one counts as free', async () => {
  const file = outboxFile()
  fs.mkdirSync(path.dirname(file), { recursive: true })
  expect(await outboxLocked(file)).toBe(false)
  const held = await lockOutbox(file, () => {})
  expect(await outboxLocked(file)).toBe(true)
  await held!.release()
  expect(await outboxLocked(file)).toBe(false)
  // A dead holder's lock, last refreshed a minute ago: past the stale time, as a taker sees it.
  fs.mkdirSync(`${file}.lock`)
  const old = new Date(Date.now() - 60_000)
  fs.utimesSync(`${file}.lock`, old, old)
  expect(await outboxLocked(file)).toBe(false)
})

it('a lock that cannot be made throws (not taken for another holder)', async () => {
  const file = outboxFile()
  fs.mkdirSync(path.dirname(path.dirname(file)), { recursive: true })
  fs.writeFileSync(path.dirname(file), '')
  await expect(lockOutbox(file, () => {})).rejects.toMatchObject({
    code: expect.stringMatching(/^E(EXIST|NOTDIR)$/) as unknown as string
  })
})

it('the refusals say who forwards and what to do', () => {
  expect(FORWARDING_ELSEWHERE_COMMAND).toBe(
    `${FORWARDING_ELSEWHERE}; quit it, or watch without --forward: the app forwards what it watches.`
  )
  expect(FORWARDING_ELSEWHERE_APP).toBe(`${FORWARDING_ELSEWHERE}; this app takes it over once that stops.`)
})

it('any other failure to make the lock throws, not "held elsewhere"', async () => {
  const file = path.join(path.dirname(outboxFile()), 'x'.repeat(300))
  await expect(lockOutbox(file, () => {})).rejects.toMatchObject({ code: 'ENAMETOOLONG' })
})
