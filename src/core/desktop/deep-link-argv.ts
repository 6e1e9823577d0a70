// Where an agent-tray:// link arrives on a launch: Windows and Linux pass it as an argument (first
// launch, or a second launch that hands its argv to the first through the single-instance lock).
// Chromium may put its own switches around it, so the first argument in our scheme is taken.
import { DEEP_LINK_SCHEME } from '../../shared/deep-link'

export function deepLinkInArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`
  return argv.find((arg) => arg.slice(0, prefix.length).toLowerCase() === prefix) ?? null
}
