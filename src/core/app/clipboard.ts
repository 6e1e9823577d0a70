// Electron's clipboard writes asynchronously since 44: a failed write is told to the window as "nothing was copied",
// never as copied.
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
