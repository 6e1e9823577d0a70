// Who may read the app's files: this user only. The settings, state and log files hold what the
// user watches and spends, and once held key ciphertexts; their directories list them.
import fs from 'node:fs'

export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** Also takes an existing one back to this user's only (earlier versions made it 0755); on Windows, the ACLs do this. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (process.platform === 'win32') return
  try {
    if ((fs.statSync(dir).mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE)
  } catch {
    // Not ours to change (another owner): leave it as its owner set it.
  }
}

/** Takes an existing file back to this user's only (a mode given at creation does not change an existing file). */
export function makePrivateFile(file: string): void {
  if (process.platform === 'win32') return
  try {
    if ((fs.statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE)
  } catch {
    // Absent, or not ours.
  }
}
