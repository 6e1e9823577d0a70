// `open` goes through the OS's handler of agent-tray:// links, so the running app (or a new one) opens the window;
// --print only prints the link, for a shortcut or another tool.
import { deepLinkUrl } from '../../shared/deep-link'
import { CliError } from '../cli-error'
import type { Context } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'

export async function openCommand(
  ctx: Context,
  projectId: string | undefined,
  taskId: string | undefined,
  flags: { print?: boolean }
): Promise<ExitCode> {
  const url = deepLinkUrl(projectId, taskId)
  if (flags.print) {
    ctx.io.stdout.write(ctx.opts.json ? `${JSON.stringify({ url })}\n` : `${url}\n`)
    return EXIT.ok
  }
  try {
    await ctx.deps.openLink(url)
  } catch (e) {
    throw new CliError(
      EXIT.internal,
      `Could not hand ${url} to the desktop: ${e instanceof Error ? e.message : String(e)}. Is Agent Tray installed (it registers agent-tray:// links)? \`agent-tray open --print\` prints the link.`
    )
  }
  if (ctx.opts.json) ctx.io.stdout.write(`${JSON.stringify({ url, opened: true })}\n`)
  return EXIT.ok
}
