// How the app was launched.

/** Demo mode: `--demo` on the command line or AGENT_TRAY_DEMO=1. */
export function isDemoLaunch(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  return argv.includes('--demo') || env.AGENT_TRAY_DEMO === '1'
}

/** The additionalData a second launch sends to the running instance. */
export interface SecondInstanceData {
  demo: boolean
}

/** Whether a second launch (its additionalData, untrusted shape) asked for demo mode. */
export function secondLaunchWantsDemo(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { demo?: unknown }).demo === true
}
