// What the window may ask of the system: opening a link in the user's browser, http(s) only.
import type { Handlers } from '../../../shared/ipc'
import { isSafeExternalUrl } from '../../../shared/url'
import type { AppContext } from '../context'
import { forbidden } from '../errors'

export function systemHandlers(ctx: AppContext): Pick<Handlers, 'shell:open-external'> {
  return {
    'shell:open-external': async ({ url }) => {
      if (!isSafeExternalUrl(url)) throw forbidden('Only http and https links can be opened.')
      await ctx.deps.openExternal(url)
    }
  }
}
