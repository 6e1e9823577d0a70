// A Cursor account opened as every agent account is (registry.ts): its agents polled, a task's steps (its latest
// run's result until streams are wired to the board), a reply as a follow-up run.
import type { ProviderTask } from '../../../shared/provider'
import { ServiceError } from '../../client/service-error'
import type { AgentAccount, AgentAccountOptions } from '../account'
import { createCursorClient } from './client'
import { CURSOR } from './mapping'

export function openCursor(options: AgentAccountOptions): AgentAccount {
  const client = createCursorClient({ ...options, apiKey: options.key })
  return {
    descriptor: CURSOR,
    async poll(signal) {
      return { changed: true, tasks: await client.poll(signal) }
    },
    async task(taskId, signal) {
      const tasks = await client.poll(signal, (id) => (id === taskId ? [] : undefined))
      const found: ProviderTask | undefined = tasks.find((t) => t.id === taskId)
      if (found === undefined)
        throw new ServiceError('not_found', `Cursor has no agent "${taskId}" on account "${options.account}".`)
      return found
    },
    waitMs: () => 0,
    checkKey: (signal) => client.me(signal),
    reply: (taskId, message, signal) => client.followUp(taskId, message, signal),
    close: () => client.close()
  }
}
