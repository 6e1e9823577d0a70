// Windows and Linux pass a link as an argument (also via the single-instance lock), with Chromium's switches around it,
// so the first argument in our scheme is taken.
import { DEEP_LINK_SCHEME } from '../../shared/deep-link'

export function deepLinkInArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`
  return argv.find((arg) => arg.slice(0, prefix.length).toLowerCase() === prefix) ?? null
}
