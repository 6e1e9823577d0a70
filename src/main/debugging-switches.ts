// Switches that let another program on the machine drive or inspect the packaged app, which holds
// the API key in its main process: Chromium's remote debugging (no Electron fuse covers it), Node's
// inspector (the fuse covers it; refused here too, for builds without fuses) and V8 flags. The
// packaged app refuses to start with any of them; main calls this first thing, before 'ready'.

/** Names are compared as Chromium and Node read them: any case, '_' as '-'. */
function isDebuggingSwitch(name: string): boolean {
  return (
    name.startsWith('remote-debugging-') || name === 'inspect' || name.startsWith('inspect-') || name === 'js-flags'
  )
}

/**
 * The first argument that is such a switch (as written up to any '='), or undefined. Chromium reads
 * '--x' and '-x' as the same switch ('/x' too on Windows), so every form counts, and so does
 * anything after a '--' (refusing too much is harmless here).
 */
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
