// Who may call us over IPC: only our own page, in the main frame of our own window.
import type { FrameLike } from '../core/app/ipc'
import type { RendererLocation } from './renderer-origin'
import { isOurRendererUrl } from './renderer-origin'

export type { FrameLike }

/** The URL check alone: our app://agent-tray page in production, or the exact dev-server origin. */
export function isTrustedSender(frameUrl: string, loc: RendererLocation): boolean {
  return isOurRendererUrl(frameUrl, loc)
}

/** An IPC event is trusted only from the main frame of one of our windows, showing our page. */
export function isTrustedFrame(
  sender: FrameLike | null | undefined,
  ourMainFrames: readonly (FrameLike | null | undefined)[],
  loc: RendererLocation
): boolean {
  if (!sender) return false
  const ours = ourMainFrames.some(
    (f) => f != null && f.processId === sender.processId && f.routingId === sender.routingId
  )
  return ours && isTrustedSender(sender.url, loc)
}
