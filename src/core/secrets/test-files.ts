// For tests: every file under a directory, to check that a secret is in none of them.
import fs from 'node:fs'
import path from 'node:path'

export function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? listFiles(full) : entry.isFile() ? [full] : []
  })
}
