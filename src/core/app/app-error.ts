// Failures the app itself decides (as opposed to the service's): bad input, a refused action, or
// a bug. They cross IPC as `IpcFailure.error`, so the message is written for a person.
import type { IpcError } from '../../shared/ipc'

export type AppErrorKind = 'invalid_argument' | 'forbidden' | 'internal'

export class AppError extends Error {
  readonly kind: AppErrorKind

  constructor(kind: AppErrorKind, message: string) {
    super(message)
    this.name = 'AppError'
    this.kind = kind
  }

  toInfo(): IpcError {
    return { kind: this.kind, message: this.message }
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError
}

export const invalidArgument = (message: string): AppError => new AppError('invalid_argument', message)
export const forbidden = (message: string): AppError => new AppError('forbidden', message)
