// Launches a command that ends in the stand-in Electron (the README's `npm run demo`, or a packaged
// app's executable) and reads back what the stand-in recorded: to its end, or until the record
// holds what the caller waits for, then the process is killed.
import { spawn } from 'node:child_process'
import { readFileSync, watch, writeFileSync } from 'node:fs'
import { RECORD_ENV, type RecordLine } from './record'

export interface Launched {
  code: number | null
  output: string
  lines: RecordLine[]
}

export function readRecord(file: string): RecordLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordLine)
}

export function launch(
  command: string,
  args: string[],
  options: {
    cwd: string
    env: Record<string, string | undefined>
    recordFile: string
    until?: (lines: RecordLine[]) => boolean
  }
): Promise<Launched> {
  writeFileSync(options.recordFile, '')
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...options.env, [RECORD_ENV]: options.recordFile },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const until = options.until
  // The record grows a line at a time: each change is looked at, and the wait ends on the line it names.
  const watcher = until
    ? watch(options.recordFile, () => until(readRecord(options.recordFile)) && child.kill('SIGKILL'))
    : null
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      watcher?.close()
      resolve({ code, output, lines: readRecord(options.recordFile) })
    })
  })
}
