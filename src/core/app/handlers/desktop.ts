// What the window may ask of the desktop around the app: updates, About and its diagnostics, the
// log file, and reporting its own unexpected errors (a typed entry, not a logging channel).
import type { AboutInfo } from '../../../shared/desktop'
import type { Handlers } from '../../../shared/ipc'
import { forbidden } from '../app-error'
import { buildAppState } from '../app-state'
import { copyText } from '../clipboard'
import type { AppContext } from '../context'
import { diagnosticsText } from '../diagnostics'
import { createWindowErrorLog } from '../window-errors'

type DesktopChannels =
  'update:check' | 'update:install' | 'app:about' | 'app:copy-diagnostics' | 'logs:open' | 'app:report-error'

/** Without the platform's facts (the controller's own tests): what plain Node knows. */
function plainNodeFacts(): Omit<AboutInfo, 'keyStore' | 'update'> {
  return {
    version: '0.0.0',
    electron: null,
    chrome: null,
    node: process.versions.node,
    platform: `${process.platform} ${process.arch}`,
    settingsDir: '',
    logFile: null
  }
}

export function aboutInfo(ctx: AppContext): AboutInfo {
  return {
    ...(ctx.ports.about?.() ?? plainNodeFacts()),
    keyStore: { backend: ctx.ports.secrets.backend, detail: ctx.ports.secrets.detail },
    update: ctx.updater.state
  }
}

export function desktopHandlers(ctx: AppContext): Pick<Handlers, DesktopChannels> {
  const logWindowError = createWindowErrorLog({ now: () => ctx.clock.now(), log: (m) => ctx.log(m) })
  return {
    'update:check': async () => ctx.updater.checkNow(),
    'update:install': async () => {
      if (ctx.updater.state.phase !== 'ready') throw forbidden('No update has been downloaded yet.')
      ctx.updater.install()
    },
    'app:about': async () => aboutInfo(ctx),
    'app:copy-diagnostics': async () => {
      const text = ctx.redact(diagnosticsText(aboutInfo(ctx), buildAppState(ctx), new Date(ctx.clock.now())))
      // The same clipboard as the window's 'clipboard:write-text'.
      await copyText(ctx, text, () => forbidden('There is no clipboard to copy to here.'))
      return { text }
    },
    'logs:open': async () => {
      if (!ctx.ports.openLogs) throw forbidden('There is no log file here.')
      await ctx.ports.openLogs()
    },
    'app:report-error': async (report) => logWindowError(report)
  }
}
