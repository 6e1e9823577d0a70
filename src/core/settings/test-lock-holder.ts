// Test helper run as a child process, to lock a file from another process for real:
//   hold FILE LOG   takes the lock, appends 'child in' to LOG, prints 'inside', and holds the lock
//                   until a line comes on stdin (or it is killed); then appends 'child out'.
import fs from 'node:fs'
import readline from 'node:readline'
import { withFileLock } from './lock'

const [mode, file, log] = process.argv.slice(2)
if (mode !== 'hold' || !file || !log) throw new Error('usage: test-lock-holder hold FILE LOG')

const lines = readline.createInterface({ input: process.stdin })
const released = new Promise<void>((resolve) => lines.once('line', () => resolve()))
await withFileLock(file, async () => {
  fs.appendFileSync(log, 'child in\n')
  process.stdout.write('inside\n')
  await released
  fs.appendFileSync(log, 'child out\n')
})
lines.close()
