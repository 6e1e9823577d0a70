// One level down (a project, a task, Settings) the bar shows a back chevron, the status icon, the
// title, one icon action and "…". The screen owns what they are; App draws them in the fixed bar.
import type { Snippet } from 'svelte'

export interface LevelBar {
  title: string
  back: { href: string; label: string }
  /** The status icon before the title. */
  leading?: Snippet
  /** One icon action and a "…" menu, at the bar's end. */
  actions?: Snippet
}

class LevelBarState {
  current = $state<LevelBar | null>(null)
}

export const levelBar = new LevelBarState()

/** Shows the screen's bar while it is mounted; `read` is tracked, so the bar follows the screen's state. */
export function useLevelBar(read: () => LevelBar): void {
  $effect(() => {
    levelBar.current = read()
  })
  $effect(() => () => {
    levelBar.current = null
  })
}
