// powerMonitor translated for core's presence source; whether that is away is core's decision.
import type { PowerMonitor } from 'electron'
import type { PresenceSource } from '../core/forward/presence-watch'

export function presenceFrom(
  powerMonitor: Pick<PowerMonitor, 'on' | 'off' | 'getSystemIdleTime' | 'getSystemIdleState'>
): PresenceSource {
  return {
    // Electron types each event's overload apart: one call per event.
    on: (event, listener) =>
      event === 'lock-screen' ? powerMonitor.on('lock-screen', listener) : powerMonitor.on('unlock-screen', listener),
    off: (event, listener) =>
      event === 'lock-screen' ? powerMonitor.off('lock-screen', listener) : powerMonitor.off('unlock-screen', listener),
    getSystemIdleTime: () => powerMonitor.getSystemIdleTime(),
    getSystemIdleState: (idleThresholdSeconds) => powerMonitor.getSystemIdleState(idleThresholdSeconds)
  }
}
