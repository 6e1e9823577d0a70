// Putting text on the clipboard for the window ('clipboard:write-text', Copy diagnostics).
// Electron's clipboard writes asynchronously since 44; a write that failed is logged and told to
// the window in words ("nothing was copied"), not as a bug in the app and never as copied.
import { AppError } from './app-error'
import type { AppContext } from './context'

export const CLIPBOARD_FAILED = 'Nothing was copied: the clipboard could not be written. Please try again.'

/** Writes `text`; `missing` is the error where this platform has no clipboard. */
export async function copyText(ctx: AppContext, text: string, missing: () => AppError): Promise<void> {
  const write = ctx.ports.writeClipboardText
  if (!write) throw missing()
  try {
    await write(text)
  } catch (error) {
    ctx.ports.onError?.('clipboard write', error)
    throw new AppError('internal', CLIPBOARD_FAILED)
  }
}
