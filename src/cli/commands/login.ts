// `login` and `logout`: the key is checked against the service before anything is stored, and never printed.
import { keyCustody } from '../../core/secrets/custody'
import { setActiveConnection } from '../../core/settings/edit'
import { DEFAULT_SERVICE_URL } from '../../shared/base-url'
import type { Connection } from '../../shared/settings'
import { authError, usageError } from '../cli-error'
import {
  type Context,
  openSecrets,
  printJson,
  readKeyFromStdin,
  readSecrets,
  requestedBaseUrl,
  resolveConnection,
  storeConnection,
  withKeychain
} from '../context'
import { EXIT, type ExitCode } from '../exit-codes'

export interface LoginFlags {
  name?: string
  publishingDomain?: string
}

export async function loginCommand(ctx: Context, flags: LoginFlags): Promise<ExitCode> {
  // Nothing stored and no URL given: the real service behind the interface.
  const fallback =
    requestedBaseUrl(ctx) === undefined && (await ctx.deps.settings()).read().connections.length === 0
      ? DEFAULT_SERVICE_URL
      : undefined
  // No restoring from the keychain here: a new key is being given anyway.
  const { connection, stored } = await resolveConnection(ctx, fallback, false)
  // Fail before asking for the key when there is nowhere to keep it.
  const secrets = await openSecrets(ctx)
  await withKeychain(ctx, () => secrets.get(connection.id))

  const apiKey = await readKey(ctx, connection)
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

async function readKey(ctx: Context, connection: Connection): Promise<string> {
  if (ctx.opts.apiKeyStdin || !ctx.io.isTTY) return readKeyFromStdin(ctx)
  const [typed] = await readSecrets(ctx, [`API key for ${connection.baseUrl}: `])
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
