// The one entry point of every invoke channel, for Electron's ipcMain and the test host alike:
// validate, call the handler, and turn every outcome into an IpcResult.
import type { Handlers, IpcError, IpcFailure, IpcResult } from '../../shared/ipc'
import { isServiceError } from '../client/service-error'
import { isAppError } from './app-error'
import { describeIssues, isInvokeChannel, requestSchemas } from './requests'

export interface DispatchOptions {
  /** Told about unexpected errors (a bug), which the window only sees as 'internal'. */
  onInternalError?: (channel: string, error: unknown) => void
}

export async function dispatch(
  handlers: Handlers,
  channel: string,
  rawRequest: unknown,
  options: DispatchOptions = {}
): Promise<IpcResult<unknown>> {
  if (typeof channel !== 'string' || !isInvokeChannel(channel)) {
    const shown = typeof channel === 'string' ? JSON.stringify(channel.slice(0, 60)) : 'that was not a string'
    return failure({ kind: 'invalid_argument', message: `Unknown channel ${shown}.` })
  }
  const parsed = requestSchemas[channel].safeParse(rawRequest)
  if (!parsed.success) {
    return failure({ kind: 'invalid_argument', message: describeIssues(channel, parsed.error) })
  }
  try {
    // The schema and the handler of one channel agree by construction of `requestSchemas`.
    const handler = handlers[channel] as (request: unknown) => Promise<unknown>
    const value = await handler(parsed.data)
    return { ok: true, value }
  } catch (error) {
    return failure(errorInfo(channel, error, options))
  }
}

function errorInfo(channel: string, error: unknown, options: DispatchOptions): IpcError {
  if (isServiceError(error)) return error.toInfo()
  if (isAppError(error)) return error.toInfo()
  options.onInternalError?.(channel, error)
  return { kind: 'internal', message: `Something went wrong in the app while handling ${channel}. Please try again.` }
}

function failure(error: IpcError): IpcFailure {
  return { ok: false, error }
}
