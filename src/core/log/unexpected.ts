// Unexpected errors are logged and the app keeps running: a tray app that exits on one bad callback loses the user's
// notifications. Node exits on an uncaught exception only while no listener is registered.

export interface ProcessLike {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown
  off(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown
}

export function catchUnexpected(proc: ProcessLike, log: (what: string, error: unknown) => void): () => void {
  const onException = (error: unknown): void => log('uncaught exception', error)
  const onRejection = (error: unknown): void => log('unhandled rejection', error)
  proc.on('uncaughtException', onException)
  proc.on('unhandledRejection', onRejection)
  return () => {
    proc.off('uncaughtException', onException)
    proc.off('unhandledRejection', onRejection)
  }
}
