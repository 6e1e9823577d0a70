// The services Agent Tray watches besides Workser's own client and monitor: each adapter opened the same way, as one
// account that polls every task it reports. Surfaces read the descriptors, never a service's name.
import type { ProviderDescriptor, ProviderTask } from '../../shared/provider'
import { ServiceError, shorten } from '../client/service-error'
import type { AgentAccount, AgentAccountOptions } from './account'
import { openCursor } from './cursor/account'
import { CURSOR } from './cursor/mapping'
import { openDevin } from './devin/account'
import { DEVIN } from './devin/mapping'
import { createGithubClient } from './github/client'
import { GITHUB } from './github/mapping'
import { createJulesClient } from './jules/client'
import { JULES } from './jules/mapping'
import { WORKSER } from './workser/mapping'

export type { AgentAccount, AgentAccountOptions, AgentPoll } from './account'

const LIST_KEY = '/agents/tasks'

function openGithub(options: AgentAccountOptions): AgentAccount {
  const client = createGithubClient({ ...options, token: options.key })
  return {
    descriptor: GITHUB,
    poll: (signal) => client.listTasks({ signal }),
    task: (taskId, signal) => client.getTask(taskId, signal),
    waitMs: () => client.pacer.waitMs(LIST_KEY),
    async checkKey(signal) {
      await client.listTasks({ signal })
    },
    close: () => client.close()
  }
}

function openJules(options: AgentAccountOptions): AgentAccount {
  const client = createJulesClient({ ...options, apiKey: options.key })
  let last = new Map<string, ProviderTask>()
  return {
    descriptor: JULES,
    async poll(signal) {
      const tasks = await client.poll(signal)
      last = new Map(tasks.map((t) => [t.id, t]))
      return { changed: true, tasks }
    },
    async task(taskId, signal) {
      const known = last.get(taskId)
      if (known?.steps !== undefined) return known
      const tasks = await client.poll(signal)
      last = new Map(tasks.map((t) => [t.id, t]))
      const found = last.get(taskId)
      if (found === undefined)
        throw new ServiceError('not_found', `Jules has no session "${taskId}" on account "${options.account}".`)
      return found
    },
    waitMs: () => 0,
    async checkKey(signal) {
      await client.listSessions(signal)
    },
    approve: (taskId, signal) => client.approvePlan(taskId, signal),
    reply: (taskId, message, signal) => client.sendMessage(taskId, message, signal),
    close: () => client.close()
  }
}

const AGENT_SERVICES: Record<string, (options: AgentAccountOptions) => AgentAccount> = {
  [GITHUB.kind]: openGithub,
  [JULES.kind]: openJules,
  [DEVIN.kind]: openDevin,
  [CURSOR.kind]: openCursor
}

/** Every service an account can be of, Workser first (the one a connection without a service is). */
export const SERVICES: readonly ProviderDescriptor[] = [WORKSER, GITHUB, JULES, DEVIN, CURSOR]

export const DEFAULT_SERVICE_KIND = WORKSER.kind

export function serviceDescriptor(kind: string | undefined): ProviderDescriptor | undefined {
  return SERVICES.find((s) => s.kind === (kind ?? DEFAULT_SERVICE_KIND))
}

/** Why an account cannot be used here: config.json names a service this version does not know (a newer version's, a
 * hand edit). Such an account is never polled and its key goes nowhere; null when the service is known. */
export function unknownServiceProblem(kind: string | undefined): string | null {
  if (serviceDescriptor(kind) !== undefined) return null
  return `This account is for a service this version of Agent Tray does not know: ${shorten(String(kind), 60)}. Update Agent Tray, or remove the account.`
}

/** Whether accounts of this kind are watched through an adapter here (else through Workser's client and monitor). */
export function isAgentService(kind: string | undefined): boolean {
  return kind !== undefined && Object.hasOwn(AGENT_SERVICES, kind)
}

export function openAgentAccount(kind: string, options: AgentAccountOptions): AgentAccount {
  const open = Object.hasOwn(AGENT_SERVICES, kind) ? AGENT_SERVICES[kind] : undefined
  if (open === undefined) throw new Error(`No adapter for the service "${kind}".`)
  return open(options)
}
