// A Devin account as the registry opens it: each poll reads every session (messages only where updated_at moved),
// a task's steps come from the last poll, the key is proven by learning which API it speaks.
import type { ProviderTask } from '../../../shared/provider'
import { ServiceError } from '../../client/service-error'
import type { AgentAccount, AgentAccountOptions } from '../account'
import { createDevinClient } from './client'
import { DEVIN } from './mapping'

export function openDevin(options: AgentAccountOptions): AgentAccount {
  const client = createDevinClient({ ...options, apiKey: options.key })
  let last = new Map<string, ProviderTask>()
  const poll = async (signal?: AbortSignal) => {
    const tasks = await client.poll(signal)
    last = new Map(tasks.map((t) => [t.id, t]))
    return tasks
  }
  return {
    descriptor: DEVIN,
    poll: async (signal) => ({ changed: true, tasks: await poll(signal) }),
    async task(taskId, signal) {
      const known = last.get(taskId)
      if (known?.steps !== undefined) return known
      const found = (await poll(signal)).find((t) => t.id === taskId)
      if (found === undefined)
        throw new ServiceError('not_found', `Devin has no session "${taskId}" on account "${options.account}".`)
      return found
    },
    waitMs: () => 0,
    async checkKey(signal) {
      await client.route(signal)
      await client.listSessions(signal)
    },
    reply: (taskId, message, signal) => client.sendMessage(taskId, message, signal),
    close: () => client.close()
  }
}
