// What the window may ask of the desktop around the app: updates, About and its diagnostics, the
// log file, and reporting its own unexpected errors (a typed entry, not a logging channel).
import type { AboutInfo } from '../../../shared/desktop'
import type { Handlers } from '../../../shared/ipc'
import { buildAppState } from '../app-state'
import { copyText } from '../clipboard'
import type { AppContext } from '../context'
import { diagnosticsText } from '../diagnostics'
import { forbidden } from '../errors'
import { createWindowErrorLog } from '../window-errors'

type DesktopChannels =
  'update:check' | 'update:install' | 'app:about' | 'app:copy-diagnostics' | 'logs:open' | 'app:report-error'

export function aboutInfo(ctx: AppContext): AboutInfo {
  return {
    ...ctx.desktop.about(),
    keyStore: { backend: ctx.deps.secrets.backend, detail: ctx.deps.secrets.detail },
    update: ctx.desktop.updater.state
  }
}

export function desktopHandlers(ctx: AppContext): Pick<Handlers, DesktopChannels> {
  const logWindowError = createWindowErrorLog({ now: () => ctx.clock.now(), log: (m) => ctx.desktop.log(m) })
  return {
    'update:check': async () => ctx.desktop.updater.checkNow(),
    'update:install': async () => {
      if (ctx.desktop.updater.state.phase !== 'ready') throw forbidden('No update has been downloaded yet.')
      ctx.desktop.updater.install()
    },
    'app:about': async () => aboutInfo(ctx),
    'app:copy-diagnostics': async () => {
      const text = ctx.desktop.redact(diagnosticsText(aboutInfo(ctx), buildAppState(ctx), new Date(ctx.clock.now())))
      // The same clipboard as the window's 'clipboard:write-text'.
      await copyText(ctx, text, () => forbidden('There is no clipboard to copy to here.'))
      return { text }
    },
    'logs:open': async () => {
      await ctx.desktop.openLogs()
    },
    'app:report-error': async (report) => logWindowError(report)
  }
}
