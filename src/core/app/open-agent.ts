// One open account of an agent service (core/providers): its adapter with the key for its own origin, polled by an
// AgentWatch whose seen state lives in state.json and whose news goes the way of a monitor's round; a streamed task's
// steps go to the window as 'agent:steps'.
import type { Connection } from '../../shared/settings'
import type { LiveNews } from '../providers/account'
import { type AgentRound, AgentWatch } from '../providers/board'
import { openAgentAccount } from '../providers/registry'
import type { Limiter } from '../util/limiter'
import type { SessionContext } from './open-connection'

export interface OpenAgent {
  /** Its name may change while it stays open; its address and key may not. */
  connection: Connection
  readonly watch: AgentWatch
}

export interface AgentEnv {
  readonly ctx: SessionContext
  readonly limiter: Limiter
  onAgentRound(connectionId: string, round: AgentRound): void
}

export function openAgent(env: AgentEnv, connection: Connection & { service: string }, key: string): OpenAgent {
  const { ctx } = env
  const connectionId = connection.id
  // The account is opened before its watch: what its stream tells is relayed once the watch exists.
  let relay: (news: LiveNews) => void = () => {}
  const account = openAgentAccount(connection.service, {
    key,
    account: connection.name,
    baseUrl: connection.baseUrl,
    now: () => ctx.clock.now(),
    onLive: (news) => relay(news)
  })
  const watch = new AgentWatch({
    connectionId,
    account,
    polling: ctx.ports.settings.read().polling,
    clock: ctx.clock,
    random: ctx.random,
    limiter: env.limiter,
    memory: ctx.ports.settings.readAgentMemory()[connectionId] ?? null,
    save: (memory) => ctx.ports.settings.writeAgentMemory(connectionId, memory),
    muted: (projectId) => (ctx.ports.settings.read().mutedAgentProjects[connectionId] ?? []).includes(projectId),
    onRound: (round) => env.onAgentRound(connectionId, round),
    onChange: ctx.changed,
    onSteps: (taskId, steps) => ctx.events.emit('agent:steps', { connectionId, taskId, steps }),
    onError: ctx.reportError
  })
  relay = (news) => watch.takeLive(news)
  return { connection, watch }
}
