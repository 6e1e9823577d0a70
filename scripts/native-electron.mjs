// `npm run native:electron`: rebuilds the native addon (keytar) for Electron's ABI before the app
// is launched or packaged. electron-builder fetches Electron's headers for it from outside the
// package registry. AGENT_TRAY_NATIVE_ELECTRON=skip leaves the addon as `npm ci` built it, for
// Node: only the stand-in Electron of the demo test (e2e/demo.spec.ts), which is Node itself, can
// load it then, and that test sets the switch because its machines cannot reach the headers.
import { spawnSync } from 'node:child_process'

export const SKIP_ENV = 'AGENT_TRAY_NATIVE_ELECTRON'

if (process.env[SKIP_ENV] === 'skip') {
  console.log(`native:electron: skipped (${SKIP_ENV}=skip); keytar stays built for Node`)
} else {
  const result = spawnSync('electron-builder', ['install-app-deps'], {
    stdio: 'inherit',
    shell: process.platform === 'win32'
  })
  process.exit(result.status ?? 1)
}
