// Run by `npm run dev` and `npm run demo` before Electron starts: on a Linux where AppArmor may
// stop Electron's sandbox, says what to do before Electron's own line about the SUID sandbox. It
// does not stop the launch: a profile that allows the sandbox is invisible without root.
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { linuxSandboxProblem } from '../src/core/desktop/linux-sandbox'

const require = createRequire(import.meta.url)
const readOrNull = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}
const chromeSandboxPath = join(dirname(require.resolve('electron/package.json')), 'dist', 'chrome-sandbox')
let chromeSandbox: { uid: number; mode: number } | null = null
try {
  const s = statSync(chromeSandboxPath)
  chromeSandbox = { uid: s.uid, mode: s.mode }
} catch {
  // No helper (not downloaded yet, or not Linux).
}
const problem = linuxSandboxProblem({
  platform: process.platform,
  restrictUserns: readOrNull('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
  chromeSandbox,
  chromeSandboxPath
})
if (problem) process.stderr.write(`${problem}\n`)
