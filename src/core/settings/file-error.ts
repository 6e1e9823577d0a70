// A settings file that cannot be used at all (not a file, unreadable, an unwritable directory) is an error, as
// nothing can be kept aside there; damaged contents never are (document-file.ts).
import fs from 'node:fs'

export class SettingsFileError extends Error {
  override name = 'SettingsFileError'
}

const NOTHING_CHANGED = 'nothing was changed'

function code(error: unknown): string | undefined {
  const value = (error as { code?: unknown } | null)?.code
  return typeof value === 'string' ? value : undefined
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0]!.trim()
}

type FileOperation = 'read' | 'write' | 'keep a copy of'

function fileOnPath(file: string, doing: FileOperation): string {
  return `Cannot ${doing} ${file}: a directory on its path is a file; ${NOTHING_CHANGED}.`
}

/** One line for a failed file operation: what `doing` to `file` met, and what the user can do. */
export function describeFileFailure(file: string, doing: FileOperation, error: unknown): string {
  switch (code(error)) {
    case 'EISDIR':
      return `${file} is a directory, not a settings file: move it away (Agent Tray then starts a new one); ${NOTHING_CHANGED}.`
    case 'EACCES':
    case 'EPERM':
      return `Cannot ${doing} ${file}: permission denied. Give your user read and write access to it and its directory (a file made with sudo belongs to root); ${NOTHING_CHANGED}.`
    case 'ELOOP':
      return `${file} is a symbolic link that points to itself: remove it; ${NOTHING_CHANGED}.`
    case 'EEXIST':
      // Only a copy is made where nothing may be ('wx'): there, something came to be at its name.
      // Otherwise it comes from making a directory: a file is where one of them should be.
      if (doing === 'keep a copy of')
        return `Cannot keep a copy of ${file}: something else is at that name (a link, or a file made meanwhile); remove it; ${NOTHING_CHANGED}.`
      return fileOnPath(file, doing)
    case 'ENOTDIR':
      return fileOnPath(file, doing)
    case 'ENOSPC':
    case 'EDQUOT':
      return `Cannot ${doing} ${file}: the disk is full; ${NOTHING_CHANGED}.`
    case 'EROFS':
      return `Cannot ${doing} ${file}: the file system is read-only; ${NOTHING_CHANGED}.`
    default:
      return `Cannot ${doing} ${file}: ${firstLine(error)}; ${NOTHING_CHANGED}.`
  }
}

/** Runs one file operation, turning any failure into a SettingsFileError with its one-line message. */
export function onFile<T>(file: string, doing: FileOperation, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof SettingsFileError) throw error
    throw new SettingsFileError(describeFileFailure(file, doing, error), { cause: error })
  }
}

/** Refuses what is not a regular file before conf reads it: a named pipe or a device would never end. */
export function checkSettingsFile(file: string): void {
  onFile(file, 'read', () => {
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    if (stat?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    if (stat && !stat.isFile())
      throw new SettingsFileError(
        `${file} is not a regular file: move it away (Agent Tray then starts a new one); ${NOTHING_CHANGED}.`
      )
  })
}
