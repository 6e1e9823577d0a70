// The command's own failures (as opposed to the service's): each carries its exit code and a
// one-line message for a person.
import { EXIT, type ExitCode } from './exit-codes'

export class CliError extends Error {
  readonly exitCode: ExitCode

  constructor(exitCode: ExitCode, message: string) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

export function isCliError(e: unknown): e is CliError {
  return e instanceof CliError
}

export const usageError = (message: string): CliError => new CliError(EXIT.usage, message)
export const authError = (message: string): CliError => new CliError(EXIT.auth, message)
export const notFoundError = (message: string): CliError => new CliError(EXIT.notFound, message)
export const keychainError = (message: string): CliError => new CliError(EXIT.keychainUnavailable, message)

export const API_KEY_FLAG_MESSAGE =
  'The API key is never taken as an argument (other users can read process arguments). ' +
  'Run `agent-tray login` to keep it in the keychain, set AGENT_TRAY_API_KEY, or pipe it with --api-key-stdin.'
