// Every entry is turned into text and passed through redaction before any electron-log transport sees it.
import path from 'node:path'
import { inspect } from 'node:util'
import type { LogFunctions } from 'electron-log'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../settings/private-files'

/** Past this the file is renamed to *.old.log (one kept) and a new one begun. */
export const LOG_FILE_MAX_BYTES = 1024 * 1024
/** One entry's text: a stack fits, a runaway message does not fill the file. */
export const MAX_ENTRY_LENGTH = 16 * 1024

/** The part of electron-log's logger this file configures. */
export interface ElectronLogLike extends LogFunctions {
  hooks: ((message: { data: unknown[] }) => { data: unknown[] } | false)[]
  transports: {
    file: {
      maxSize: number
      format: unknown
      writeOptions?: { flag?: string; mode?: number; encoding?: string }
      getFile(): { path: string }
    }
    console: { format: unknown }
  }
}

/** An entry's parts as text: errors with their stack, other values inspected, nothing executable. */
export function entryText(data: readonly unknown[]): string {
  const text = data
    .map((d) =>
      typeof d === 'string'
        ? d
        : d instanceof Error
          ? (d.stack ?? `${d.name}: ${d.message}`)
          : inspect(d, { depth: 3, breakLength: Infinity })
    )
    .join(' ')
  // Newlines and tabs stay (a stack); other controls are written out, so a server's words cannot act on a terminal.
  const safe = text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
  return safe.length > MAX_ENTRY_LENGTH ? `${safe.slice(0, MAX_ENTRY_LENGTH - 1)}…` : safe
}

/** Sets up rotation, the line format and the redaction hook; returns the log file's path. */
export function configureLog(
  log: ElectronLogLike,
  options: { redact: (text: string) => string; maxBytes?: number }
): string {
  log.transports.file.maxSize = options.maxBytes ?? LOG_FILE_MAX_BYTES
  log.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}'
  log.transports.console.format = '[agent-tray] {text}'
  // Runs before every transport: the one place an entry becomes text, so the one place to redact.
  log.hooks.push((message) => ({ ...message, data: [options.redact(entryText(message.data))] }))
  // electron-log creates its file 0666 in a directory made 0755: this user's only, like the settings.
  log.transports.file.writeOptions = {
    flag: 'a',
    encoding: 'utf8',
    ...log.transports.file.writeOptions,
    mode: PRIVATE_FILE_MODE
  }
  const file = log.transports.file.getFile().path
  makePrivateDir(path.dirname(file))
  makePrivateFile(file)
  makePrivateFile(file.replace(/\.log$/, '.old.log'))
  return file
}
