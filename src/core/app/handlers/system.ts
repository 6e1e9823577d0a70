// What the window may ask of the system: opening a link in the user's browser (http(s) only), putting a line of text
// on the clipboard and reading one for a Paste button (the renderer has no clipboard permission of its own).
import type { Handlers } from '../../../shared/ipc'
import { isSafeExternalUrl } from '../../../shared/url'
import { forbidden, invalidArgument } from '../app-error'
import { copyText, pastedLine } from '../clipboard'
import type { AppContext } from '../context'

export function systemHandlers(
  ctx: AppContext
): Pick<Handlers, 'shell:open-external' | 'clipboard:write-text' | 'clipboard:read-text'> {
  return {
    'shell:open-external': async ({ url }) => {
      if (!isSafeExternalUrl(url)) throw forbidden('Only http and https links can be opened.')
      await ctx.ports.openExternal(url)
    },
    'clipboard:write-text': async ({ text }) => {
      await copyText(ctx, text, () => invalidArgument('There is no clipboard to copy to here.'))
    },
    'clipboard:read-text': async () => ({ text: await pastedLine(ctx) })
  }
}
