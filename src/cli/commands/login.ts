// `login` and `logout`: the key is checked against the service before anything is stored, and never printed.
import { isServiceError } from '../../core/client'
import { isAgentService, openAgentAccount, serviceDescriptor } from '../../core/providers/registry'
import { keyCustody } from '../../core/secrets/custody'
import { addConnection, setActiveConnection, updateConnection } from '../../core/settings/edit'
import { DEFAULT_SERVICE_URL } from '../../shared/base-url'
import { connectionIdProblem } from '../../shared/ids'
import type { ProviderDescriptor } from '../../shared/provider'
import { authError, CliError, usageError } from '../cli-error'
import {
  type Context,
  normalizeBaseUrl,
  openSecrets,
  printJson,
  readKeyFromStdin,
  readSecrets,
  requestedBaseUrl,
  resolveConnection,
  storeConnection,
  withKeychain
} from '../context'
import { EXIT, type ExitCode, exitCodeForServiceError } from '../exit-codes'
import { descriptorOf, isAgentAccount, requireKnownService } from '../services'

export interface LoginFlags {
  name?: string
  publishingDomain?: string
  /** A descriptor's kind (registry.ts); absent: the first service. */
  service?: string
}

export async function loginCommand(ctx: Context, flags: LoginFlags): Promise<ExitCode> {
  if (isAgentService(flags.service)) return agentLogin(ctx, serviceDescriptor(flags.service)!, flags)
  // Nothing stored and no URL given: the real service behind the interface.
  const fallback =
    requestedBaseUrl(ctx) === undefined && (await ctx.deps.settings()).read().connections.length === 0
      ? DEFAULT_SERVICE_URL
      : undefined
  // No restoring from the keychain here: a new key is being given anyway.
  const { connection, stored } = await resolveConnection(ctx, fallback, false)
  requireKnownService(connection)
  if (isAgentAccount(connection)) {
    const kind = descriptorOf(connection).kind
    throw usageError(
      `${connection.baseUrl} is the ${descriptorOf(connection).displayName} account "${connection.name}": log in to it with \`agent-tray login --service ${kind}\`.`
    )
  }
  // Fail before asking for the key when there is nowhere to keep it.
  const secrets = await openSecrets(ctx)
  await withKeychain(ctx, () => secrets.get(connection.id))

  const apiKey = await readKey(ctx, `API key for ${connection.baseUrl}: `)
  const client = ctx.deps.createClient({ baseUrl: connection.baseUrl, apiKey })
  let accepted: boolean
  try {
    accepted = await client.checkKey()
  } finally {
    await client.close()
  }
  if (!accepted) throw authError(`The service at ${connection.baseUrl} rejected this API key; nothing was stored.`)

  const changes = { name: flags.name, publishingDomain: flags.publishingDomain }
  const saved =
    stored && flags.name === undefined && flags.publishingDomain === undefined
      ? connection
      : await storeConnection(ctx, connection, changes)
  await withKeychain(ctx, () => keyCustody(secrets).set(saved.id, saved.baseUrl, apiKey))
  await (await ctx.deps.settings()).update((draft) => setActiveConnection(draft, saved.id))
  if (ctx.opts.json) printJson(ctx, { loggedIn: true, connection: saved })
  else ctx.io.stdout.write(`Logged in to ${saved.baseUrl} (${saved.name}). The API key is in the system keychain.\n`)
  return EXIT.ok
}

/**
 * An account of an agent service: its default address unless --base-url says otherwise, the key checked with the call
 * the service documents (`checkKey`), then stored bound to its origin as every key is. Logging in again to the same
 * service and address (and --name, when several accounts share it) replaces that account's key.
 */
async function agentLogin(ctx: Context, descriptor: ProviderDescriptor, flags: LoginFlags): Promise<ExitCode> {
  if (flags.publishingDomain !== undefined)
    throw usageError(`${descriptor.displayName} does not offer publishing: --publishing-domain does not apply.`)
  // --base-url only: AGENT_TRAY_BASE_URL names a Workser service, where this key must never go.
  const baseUrl = ctx.opts.baseUrl !== undefined ? normalizeBaseUrl(ctx.opts.baseUrl) : descriptor.defaultBaseUrl
  const name = flags.name?.trim() || undefined
  const same = (await ctx.deps.settings())
    .read()
    .connections.filter((c) => c.service === descriptor.kind && c.baseUrl === baseUrl)
  const existing = name !== undefined ? same.find((c) => c.name === name) : same[0]
  if (name === undefined && same.length > 1)
    throw usageError(
      `There are ${same.length} ${descriptor.displayName} accounts at ${baseUrl}: say which with --name (${same.map((c) => JSON.stringify(c.name)).join(', ')}).`
    )
  const id = existing?.id ?? ctx.deps.newId()
  const idProblem = connectionIdProblem(id)
  if (idProblem !== null) throw new Error(`A new account id ${idProblem}.`)
  const accountName = name ?? existing?.name ?? descriptor.displayName
  const secrets = await openSecrets(ctx)
  await withKeychain(ctx, () => secrets.get(id))

  const key = await readKey(ctx, `API key for ${descriptor.displayName} (${baseUrl}): `)
  const account = openAgentAccount(descriptor.kind, { key, account: accountName, baseUrl })
  try {
    await account.checkKey()
  } catch (e) {
    if (isServiceError(e)) throw new CliError(exitCodeForServiceError(e.kind), `${e.message} Nothing was stored.`)
    throw e
  } finally {
    await account.close()
  }

  const after = await (
    await ctx.deps.settings()
  ).update((draft) => {
    if (draft.connections.some((c) => c.id === id)) {
      updateConnection(draft, id, { name: accountName })
      return
    }
    addConnection(draft, { baseUrl, name: accountName }, id).service = descriptor.kind
  })
  const saved = after.connections.find((c) => c.id === id)!
  await withKeychain(ctx, () => keyCustody(secrets).set(saved.id, saved.baseUrl, key))
  if (ctx.opts.json) printJson(ctx, { loggedIn: true, connection: saved })
  else
    ctx.io.stdout.write(
      `Logged in to ${descriptor.displayName} at ${saved.baseUrl} (${saved.name}). The API key is in the system keychain.\n`
    )
  return EXIT.ok
}

async function readKey(ctx: Context, prompt: string): Promise<string> {
  if (ctx.opts.apiKeyStdin || !ctx.io.isTTY) return readKeyFromStdin(ctx)
  const [typed] = await readSecrets(ctx, [prompt])
  if (typed === '') throw usageError('No API key was entered; nothing was stored.')
  return typed!
}

export async function logoutCommand(ctx: Context): Promise<ExitCode> {
  const { connection, stored } = await resolveConnection(ctx, undefined, false)
  // The key stored for that origin goes, whatever config.json lists (it may have lost the connection).
  const ciphertexts = (await ctx.deps.settings()).ciphertexts
  const removed = await withKeychain(ctx, async (s) => {
    const fromKeychain = stored && (await s.delete(connection.id))
    const fromFile = stored && ((await ciphertexts?.delete(connection.id)) ?? false)
    const byId = fromKeychain || fromFile
    const byOrigin = await keyCustody(s).deleteOrigin(connection.baseUrl)
    return byId || byOrigin.length > 0
  })
  if (ctx.opts.json) printJson(ctx, { loggedOut: removed, connection })
  else if (removed)
    ctx.io.stdout.write(`Logged out of ${connection.baseUrl}: its API key was removed from the keychain.\n`)
  else ctx.io.stdout.write(`No API key was stored for ${connection.baseUrl}.\n`)
  return EXIT.ok
}
