// The stand-in's record: one JSON line per thing the app asked of "Electron", appended to the file
// named by AGENT_TRAY_STAND_IN_RECORD, so the test that launched the app can read what happened.
import { appendFileSync } from 'node:fs'

export const RECORD_ENV = 'AGENT_TRAY_STAND_IN_RECORD'

export interface RecordLine {
  /** What happened: 'tray', 'window', 'notification', 'refused', 'ipc', ... */
  kind: string
  /** Milliseconds since the stand-in started. */
  t: number
  [key: string]: unknown
}

const started = Date.now()

export function record(kind: string, data: Record<string, unknown> = {}): void {
  const file = process.env[RECORD_ENV]
  if (!file) return
  appendFileSync(file, JSON.stringify({ kind, t: Date.now() - started, ...data }) + '\n')
}

/** Electron throws for these; so does the stand-in, and the record says what was refused. */
export function refuse(what: string): never {
  record('refused', { what })
  throw new Error(`stand-in Electron: ${what}`)
}
