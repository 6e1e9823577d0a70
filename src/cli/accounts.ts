// Agent accounts as the command opens them, with their key (the keychain's entry, bound to its origin, as every key).
import type { LiveNews } from '../core/providers/account'
import { type AgentAccount, openAgentAccount } from '../core/providers/registry'
import { keyCustody, KeyNotSentError } from '../core/secrets/custody'
import type { Connection } from '../shared/settings'
import { authError } from './cli-error'
import { API_KEY_ENV, type Context, remember, requestedBaseUrl, resolveApiKey, withKeychain } from './context'
import { descriptorOf } from './services'

/** The account's key: --api-key-stdin or AGENT_TRAY_API_KEY only when the command was pointed at it by its address
 *  (a key given for the active Workser account never goes to another service), else the keychain. */
export async function agentKey(ctx: Context, connection: Connection, pointed: boolean): Promise<string> {
  if (pointed && requestedBaseUrl(ctx) !== undefined) return resolveApiKey(ctx, { connection, stored: true })
  const login = `agent-tray login --service ${descriptorOf(connection).kind} --name ${JSON.stringify(connection.name)}`
  let key: string | null
  try {
    key = await withKeychain(ctx, (s) => keyCustody(s).get(connection.id, connection.baseUrl))
  } catch (e) {
    if (!(e instanceof KeyNotSentError)) throw e
    throw authError(`The account "${connection.name}" cannot use its key: ${e.message} Run \`${login}\`.`)
  }
  if (key === null || key === '')
    throw authError(`No API key for the account "${connection.name}": run \`${login}\` (or set ${API_KEY_ENV}).`)
  return remember(ctx, key)
}

/** An agent account opened with its key; close it when done. With `onLive` (`watch`), a service that streams a
 *  running task (Cursor) follows it and tells what it streams between polls. */
export async function openStoredAgentAccount(
  ctx: Context,
  connection: Connection,
  pointed = false,
  onLive?: (news: LiveNews) => void
): Promise<AgentAccount> {
  const key = await agentKey(ctx, connection, pointed)
  return openAgentAccount(descriptorOf(connection).kind, {
    key,
    account: connection.name,
    baseUrl: connection.baseUrl,
    now: () => ctx.deps.now().getTime(),
    ...(onLive === undefined ? {} : { onLive })
  })
}
