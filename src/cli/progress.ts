// Our own few lines rather than a library (they redraw on timers and take over the stream): redrawn only when a count
// changes, and nothing at all when stderr is not a terminal or the output is for a program.
import type { Writable } from './io'

const WIDTH = 24

export interface Progress {
  update(done: number, total: number): void
  /** Erases the line. */
  end(): void
}

export function progressBar(terminal: Writable | undefined, label: string): Progress {
  let drawn = false
  if (!terminal) return { update: () => undefined, end: () => undefined }
  return {
    update(done, total) {
      if (total <= 0) return
      const filled = Math.round((Math.min(done, total) / total) * WIDTH)
      terminal.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total}`)
      drawn = true
    },
    end() {
      if (drawn) terminal.write('\r\u001b[K')
      drawn = false
    }
  }
}
