// How the app was launched.

/** Demo mode: `--demo` on the command line or AGENT_TRAY_DEMO=1. */
export function isDemoLaunch(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  return argv.includes('--demo') || env.AGENT_TRAY_DEMO === '1'
}
