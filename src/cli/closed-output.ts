// A reader that stops early (`agent-tray --help | head`, `agent-tray tasks | less` quit at once)
// closes our output. Like git and gh, the command then ends quietly: exit 0, no stack trace.
export function endQuietlyWhenOutputCloses(
  streams: readonly NodeJS.WritableStream[],
  exit: (code: number) => void
): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return exit(0)
      throw error
    })
  }
}
