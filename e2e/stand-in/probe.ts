// With AGENT_TRAY_STAND_IN_PROBE=1 the stand-in acts as a user and a hostile page would, and
// records what the app answered: a click on the tray icon opens the window; the window's own page
// calls the app through the bridge its preload exposed; a frame that is not ours calls the same
// channel; then, after a notification the test names, the app is asked to quit (AGENT_TRAY_STAND_IN_QUIT_AFTER).
import * as electron from './electron'
import { record } from './record'

export const PROBE_ENV = 'AGENT_TRAY_STAND_IN_PROBE'
/** A pattern: app.quit() once a notification whose title matches it was shown. */
export const QUIT_ENV = 'AGENT_TRAY_STAND_IN_QUIT_AFTER'

export function startProbe(exposedByWindow: Map<electron.StandInWindow, Map<string, unknown>>): void {
  electron.standInEvents.once('tray', (tray: electron.StandInTray) => {
    record('probe.click-tray')
    // After the app's own start-up step that created the tray has finished.
    setImmediate(() => tray.click())
  })
  electron.standInEvents.once('page-loaded', (win: electron.StandInWindow) => {
    void (async () => {
      type Answer = { ok: boolean; error?: { kind: string }; value?: { secrets?: { backend: string } } }
      const bridge = exposedByWindow.get(win)?.get('agentTray') as
        Record<string, (request?: unknown) => Promise<Answer>> | undefined
      const own = bridge ? await bridge['app:get-state']!() : null
      record('probe.own-frame', {
        ok: own?.ok ?? null,
        error: own?.error?.kind ?? null,
        secretsBackend: own?.value?.secrets?.backend ?? null
      })
      const foreign = new electron.StandInFrame()
      foreign.url = 'https://example.invalid/'
      const answer = (await electron.invokeFrom(foreign, null, 'app:get-state')) as {
        ok: boolean
        error?: { kind: string }
      }
      record('probe.foreign-frame', { ok: answer.ok, error: answer.error?.kind ?? null })
      const sameWindowOtherUrl = new electron.StandInFrame()
      Object.assign(sameWindowOtherUrl, {
        processId: win.webContents.mainFrame.processId,
        routingId: win.webContents.mainFrame.routingId + 1000
      })
      sameWindowOtherUrl.url = win.webContents.mainFrame.url
      const subFrame = (await electron.invokeFrom(sameWindowOtherUrl, win.webContents, 'app:get-state')) as {
        ok: boolean
        error?: { kind: string }
      }
      record('probe.sub-frame', { ok: subFrame.ok, error: subFrame.error?.kind ?? null })
      record('probe.channels', electron.registeredChannels())
    })().catch((e: unknown) => record('probe.failed', { error: e instanceof Error ? e.message : String(e) }))
  })
  const quitAfter = process.env[QUIT_ENV]
  if (quitAfter) {
    const pattern = new RegExp(quitAfter)
    const onNotification = (n: electron.StandInNotification): void => {
      if (!pattern.test(n.title)) return
      electron.standInEvents.off('notification', onNotification)
      record('probe.quit', { after: n.title })
      setImmediate(() => electron.app.quit())
    }
    electron.standInEvents.on('notification', onNotification)
  }
}
