// The packaged app holds the API key in its main process, so it refuses to start with any switch that lets another
// program drive or inspect it (Chromium debugging has no fuse; Node's inspector is refused too, for unfused builds).

/** Names are compared as Chromium and Node read them: any case, '_' as '-'. */
function isDebuggingSwitch(name: string): boolean {
  return (
    name.startsWith('remote-debugging-') || name === 'inspect' || name.startsWith('inspect-') || name === 'js-flags'
  )
}

/** The first such switch, or undefined. Chromium reads '--x', '-x' (and '/x' on Windows) alike and so do we, even
 *  after '--': refusing too much is harmless here. */
export function debuggingSwitch(argv: readonly string[], platform: string): string | undefined {
  const prefixes = platform === 'win32' ? ['--', '-', '/'] : ['--', '-']
  for (const arg of argv) {
    const prefix = prefixes.find((p) => arg.startsWith(p))
    if (prefix === undefined) continue
    const written = arg.split('=', 1)[0] ?? arg
    const name = written.slice(prefix.length).toLowerCase().replaceAll('_', '-')
    if (isDebuggingSwitch(name)) return written
  }
  return undefined
}

/** Calls `exit(2, why)` when argv has a debugging switch; does nothing otherwise. */
export function refuseDebuggingSwitches(
  argv: readonly string[],
  platform: string,
  exit: (code: number, why: string) => void
): void {
  const found = debuggingSwitch(argv, platform)
  if (found === undefined) return
  exit(
    2,
    `Agent Tray does not start with ${found}: it would let other programs drive the app that holds your API key.\n`
  )
}
