// Linux: asks the session bus whether a StatusNotifier host will show our icon, and tells the user
// once when none will (core/desktop/tray-host.ts decides; this only carries it out).
import type { ComposedApp } from '../core/app/compose'
import { queryTrayHost, shouldTellTrayHidden, TRAY_HIDDEN_NOTE } from '../core/desktop/tray-host'
import type { SettingsStore } from '../core/settings/store'

export async function checkTrayHost(deps: {
  settings: SettingsStore
  composed: ComposedApp
  tell(title: string, body: string): void
  log(message: string): void
}): Promise<void> {
  if (process.platform !== 'linux') return
  const host = await queryTrayHost()
  deps.log(`tray: StatusNotifier host ${host}`)
  const decision = shouldTellTrayHidden(process.platform, host, deps.settings.read().trayNoticeShown)
  deps.composed.setDesktopNote(TRAY_HIDDEN_NOTE, decision.note)
  if (decision.notify) deps.tell(TRAY_HIDDEN_NOTE.title, TRAY_HIDDEN_NOTE.text)
  if (decision.remember !== null) {
    const remember = decision.remember
    await deps.settings
      .update((draft) => void (draft.trayNoticeShown = remember))
      .catch((e: unknown) => deps.log(`tray: ${e instanceof Error ? e.message : String(e)}`))
  }
}
