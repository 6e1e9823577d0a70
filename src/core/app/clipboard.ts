// Electron's clipboard writes asynchronously since 44: a failed write is told to the window as "nothing was copied",
// never as copied.
import { AppError, invalidArgument } from './app-error'
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

/** A field's paste (an API key): what is pasted is one line, so a whole document is refused. It is never logged. */
export const MAX_PASTED = 4096

/** The clipboard's text, trimmed, when it is one line of at most MAX_PASTED characters. */
export async function pastedLine(ctx: AppContext): Promise<string> {
  const read = ctx.ports.readClipboardText
  if (!read) throw invalidArgument('There is no clipboard to paste from here.')
  const text = (await read()).trim()
  if (text === '') throw invalidArgument('The clipboard holds no text.')
  if (text.length > MAX_PASTED || /[\r\n]/.test(text))
    throw invalidArgument('The clipboard holds more than one line of text: copy the key alone.')
  return text
}
