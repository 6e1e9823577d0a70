// The OS's own opener, which hands agent-tray:// links to the registered app, running or not, on every platform.
import { spawn } from 'node:child_process'

export function linkOpener(platform: string, url: string): { command: string; args: string[] } {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: [url] }
    case 'win32':
      // Not `cmd /c start`: cmd would read the link's characters as its own syntax.
      return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] }
    default:
      return { command: 'xdg-open', args: [url] }
  }
}

/** Runs the opener; resolves when it exited 0, rejects with one line otherwise. */
export function openLink(
  url: string,
  options: { platform: string; env: Record<string, string | undefined> }
): Promise<void> {
  const { command, args } = linkOpener(options.platform, url)
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env as NodeJS.ProcessEnv, stdio: 'ignore', detached: false })
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(e.code === 'ENOENT' ? `${command} was not found` : `${command} failed: ${e.message}`))
    )
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))))
  })
}
