// Connections: add or change one (its key checked by the service first), remove one with its key,
// switch the active one, and the demo's own connection.
import { keyTransportProblem } from '../../../shared/base-url'
import type { ConnectionView, Handlers } from '../../../shared/ipc'
import type { Connection, Settings } from '../../../shared/settings'
import { newWatchedProject } from '../../../shared/watched-project'
import { ServiceError } from '../../client/service-error'
import { pauseEnd, pauseShown } from '../../notify/pause'
import { isAgentService, openAgentAccount, serviceDescriptor, unknownServiceProblem } from '../../providers/registry'
import { addConnection, removeConnection, SettingsEditError, updateConnection } from '../../settings/edit'
import { forbidden, invalidArgument } from '../app-error'
import type { AppContext } from '../context'
import { DEMO_CONNECTION_ID, demoConnectionId } from '../demo-connection'
import { newClient } from '../open-connection'

export { DEMO_CONNECTION_ID }

type ConnectionHandlers = Pick<
  Handlers,
  'connection:save' | 'connection:remove' | 'connection:activate' | 'connection:set-notifications' | 'demo:start'
>

export function connectionView(ctx: AppContext, connection: Connection): ConnectionView {
  const prefs = ctx.settings().connectionNotifications[connection.id]
  const pausedUntil = pauseShown(prefs?.pausedUntil, ctx.clock.now())
  return {
    ...connection,
    hasKey: ctx.session.hasKey(connection.id),
    problem:
      unknownServiceProblem(connection.service) ??
      keyTransportProblem(connection.baseUrl) ??
      ctx.session.keyProblem(connection.id),
    notifications: { muted: prefs?.muted ?? false, pausedUntil },
    agentHealth: isAgentService(connection.service)
      ? (ctx.session.agent(connection.id)?.watch.health ?? { state: 'unknown' })
      : null
  }
}

/** Workser is the service of a connection that names none; an empty address is the service's default. */
function withService(fields: Omit<Connection, 'id'>): Omit<Connection, 'id'> {
  const { service, ...rest } = fields
  const descriptor = serviceDescriptor(service)
  const baseUrl = rest.baseUrl === '' ? (descriptor?.defaultBaseUrl ?? '') : rest.baseUrl
  return isAgentService(service) ? { ...rest, baseUrl, service: service as string } : { ...rest, baseUrl }
}

function requireConnection(settings: Settings, connectionId: string): Connection {
  const connection = settings.connections.find((c) => c.id === connectionId)
  if (!connection) throw invalidArgument(`There is no connection with id "${connectionId}".`)
  return connection
}

function newConnectionId(ctx: AppContext, existing: readonly Connection[]): string {
  const base = `c-${Math.floor(ctx.random() * 36 ** 8)
    .toString(36)
    .padStart(8, '0')}`
  let id = base
  // A weak or fixed random source must not loop forever.
  for (let n = 2; existing.some((c) => c.id === id); n++) id = `${base}-${n}`
  return id
}

/** The same rules as the command's (core/settings/edit.ts), as the app's invalid_argument. */
function editConnection(draft: Settings, id: string, fields: Omit<Connection, 'id'>, keyReplaced: boolean): Connection {
  try {
    return draft.connections.some((c) => c.id === id)
      ? updateConnection(draft, id, fields, { keyReplaced })
      : addConnection(draft, fields, id)
  } catch (error) {
    if (error instanceof SettingsEditError) throw invalidArgument(error.message)
    throw error
  }
}

export function connectionHandlers(ctx: AppContext): ConnectionHandlers {
  const { session, ports } = ctx

  // A key is stored only once the service has accepted it, so a typo shows up on the setup
  // screen instead of as a broken connection later. Unreachable services fail the save too.
  async function checkKeyBeforeSaving(connection: Connection, apiKey: string): Promise<void> {
    const { service } = connection
    if (service !== undefined && isAgentService(service)) {
      // The service's own documented call; its error names the account and the service.
      const account = openAgentAccount(service, {
        key: apiKey,
        account: connection.name,
        baseUrl: connection.baseUrl,
        now: () => ctx.clock.now()
      })
      try {
        await account.checkKey()
      } finally {
        await account.close()
      }
      return
    }
    const client = newClient(ports, connection, apiKey)
    try {
      if (!(await client.checkKey())) {
        throw new ServiceError(
          'auth',
          `The service at ${connection.baseUrl} rejected this API key; nothing was saved.`,
          { status: 401 }
        )
      }
    } finally {
      await client.close()
    }
  }

  async function save(request: Parameters<Handlers['connection:save']>[0]): Promise<ConnectionView> {
    const settings = ctx.settings()
    const { id: givenId, ...given } = request.connection
    const fields = withService(given)
    if (givenId !== undefined) requireConnection(settings, givenId)
    const id = givenId ?? newConnectionId(ctx, settings.connections)
    // Saving must not make it an account of another service, nor check a key with one.
    const unknown = unknownServiceProblem(settings.connections.find((c) => c.id === id)?.service)
    if (unknown !== null) throw invalidArgument(unknown)
    const keyReplaced = request.apiKey !== undefined
    // Checked on a copy first: nothing is sent anywhere for a change the rules refuse.
    const connection = editConnection(structuredClone(settings), id, fields, keyReplaced)
    if (request.apiKey !== undefined) {
      await checkKeyBeforeSaving(connection, request.apiKey)
      await ctx.keys.set(id, connection.baseUrl, request.apiKey)
      session.keyStored(id, true)
    } else {
      session.keyStored(id, await ctx.keys.has(id))
    }
    const saved = await ctx.update((draft) => {
      editConnection(draft, id, fields, keyReplaced)
    })
    const stored = saved.connections.find((c) => c.id === id) ?? connection
    await session.sync(keyReplaced ? { reopen: id } : {})
    return connectionView(ctx, stored)
  }

  async function remove(connectionId: string): Promise<void> {
    requireConnection(ctx.settings(), connectionId)
    await ctx.update((draft) => void removeConnection(draft, connectionId))
    ctx.pauses.forget(connectionId)
    await ctx.keys.delete(connectionId)
    session.keyStored(connectionId, false)
    await session.sync()
    await ports.settings
      .writeLastSeen(connectionId, {})
      .catch((e: unknown) => ctx.reportError('forgetting the last seen state', e))
    await ports.settings
      .writeAgentMemory(connectionId, null)
      .catch((e: unknown) => ctx.reportError('forgetting what agent tasks were seen', e))
    if (connectionId === DEMO_CONNECTION_ID) {
      ctx.demo.active = false
      demoStart = null
    }
  }

  async function activate(connectionId: string): Promise<void> {
    requireConnection(ctx.settings(), connectionId)
    if (ctx.settings().activeConnectionId === connectionId && session.active()?.connection.id === connectionId) return
    await ctx.update((draft) => {
      draft.activeConnectionId = connectionId
    })
    await session.sync()
  }

  /** Mutes or pauses one account; the window is told when a pause ends. */
  async function setNotifications(
    request: Parameters<Handlers['connection:set-notifications']>[0]
  ): Promise<ConnectionView> {
    const { connectionId, muted, pauseMinutes } = request
    requireConnection(ctx.settings(), connectionId)
    const pausedUntil =
      pauseMinutes === undefined ? undefined : pauseMinutes === null ? null : pauseEnd(ctx.clock.now(), pauseMinutes)
    const saved = await ctx.update((draft) => {
      const prefs = (draft.connectionNotifications[connectionId] ??= { muted: false, pausedUntil: null })
      if (muted !== undefined) prefs.muted = muted
      if (pausedUntil !== undefined) prefs.pausedUntil = pausedUntil
    })
    if (pausedUntil !== undefined) ctx.pauses.paused({ connectionId }, pausedUntil)
    ctx.changed()
    return connectionView(ctx, requireConnection(saved, connectionId))
  }

  let demoStart: Promise<void> | null = null
  function startDemo(): Promise<void> {
    const start = ports.startDemo
    if (!start) return Promise.reject(forbidden('The demo is not available in this build.'))
    demoStart ??= (async () => {
      const service = await start()
      // The demo's key lives in memory for this run only (demo-connection.ts), so the log learns it here; a fresh
      // service has fresh ids, so last run's seen state is cleared.
      ctx.known.add(service.apiKey)
      ctx.keys.holdForSession(DEMO_CONNECTION_ID, service.baseUrl, service.apiKey)
      session.keyStored(DEMO_CONNECTION_ID, true)
      await ports.settings.writeLastSeen(DEMO_CONNECTION_ID, {})
      const agents = (service.agents ?? []).map((agent) => ({ ...agent, id: demoConnectionId(agent.service) }))
      for (const agent of agents) {
        ctx.known.add(agent.apiKey)
        ctx.keys.holdForSession(agent.id, agent.baseUrl, agent.apiKey)
        session.keyStored(agent.id, true)
        await ports.settings.writeLastSeen(agent.id, {})
      }
      const addedAt = new Date(ctx.clock.now())
      await ctx.update((draft) => {
        const connection: Connection = {
          id: DEMO_CONNECTION_ID,
          name: 'Demo',
          baseUrl: service.baseUrl,
          publishingDomain: service.publishingDomain
        }
        const i = draft.connections.findIndex((c) => c.id === DEMO_CONNECTION_ID)
        if (i === -1) draft.connections.push(connection)
        else draft.connections[i] = connection
        draft.watched[DEMO_CONNECTION_ID] = service.projectIds.map((projectId, n) =>
          newWatchedProject(projectId, addedAt, { name: `Demo project ${n + 1}` })
        )
        delete draft.attention[DEMO_CONNECTION_ID]
        // Each agent service's account beside it: every task of the account is watched, no list needed.
        for (const agent of agents) {
          const own: Connection = {
            id: agent.id,
            name: agent.name,
            baseUrl: agent.baseUrl,
            publishingDomain: '',
            service: agent.service
          }
          const at = draft.connections.findIndex((c) => c.id === agent.id)
          if (at === -1) draft.connections.push(own)
          else draft.connections[at] = own
          delete draft.attention[agent.id]
        }
        draft.activeConnectionId = DEMO_CONNECTION_ID
      })
      ctx.demo.active = true
      await session.sync({ reopen: DEMO_CONNECTION_ID })
    })().catch((error: unknown) => {
      demoStart = null
      throw error
    })
    return demoStart
  }

  return {
    'connection:save': (request) => session.exclusive(() => save(request)),
    'connection:remove': ({ connectionId }) => session.exclusive(() => remove(connectionId)),
    'connection:activate': ({ connectionId }) => session.exclusive(() => activate(connectionId)),
    'connection:set-notifications': (request) => setNotifications(request),
    'demo:start': () => session.exclusive(() => startDemo())
  }
}
