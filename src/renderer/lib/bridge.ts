// The window's only way to the app. A call that throws (the bridge is missing or broken) comes
// back as a failure like any other, so screens handle one shape.
import type { Bridge, IpcResult } from '../../shared/ipc'

export function bridge(): Bridge {
  const b = (globalThis as { agentTray?: Bridge }).agentTray
  if (!b) throw new Error('Agent Tray’s bridge is missing: this page must run inside the app.')
  return b
}

export async function call<T>(run: (b: Bridge) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await run(bridge())
  } catch (error) {
    return { ok: false, error: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } }
  }
}
