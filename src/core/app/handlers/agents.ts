// Agent accounts (core/providers): one task with its steps, approving and answering where the service offers it,
// and muting a repository or source.
import type { Handlers } from '../../../shared/ipc'
import { isAgentService } from '../../providers/registry'
import { invalidArgument } from '../app-error'
import type { AppContext } from '../context'

type AgentHandlers = Pick<Handlers, 'agent:task' | 'agent:approve' | 'agent:reply' | 'agent:mute-project'>

export function agentHandlers(ctx: AppContext): AgentHandlers {
  const { session } = ctx
  return {
    'agent:task': ({ connectionId, taskId }) => session.requireAgent(connectionId).watch.task(taskId),
    'agent:approve': ({ connectionId, taskId }) => session.requireAgent(connectionId).watch.approve(taskId),
    'agent:reply': ({ connectionId, taskId, message }) =>
      session.requireAgent(connectionId).watch.reply(taskId, message),
    'agent:mute-project': async ({ connectionId, projectId, muted }) => {
      await ctx.update((draft) => {
        const connection = draft.connections.find((c) => c.id === connectionId)
        if (!connection) throw invalidArgument(`There is no connection with id "${connectionId}".`)
        if (!isAgentService(connection.service))
          throw invalidArgument(`The connection ${connection.name} is not an account of an agent service.`)
        const others = (draft.mutedAgentProjects[connectionId] ?? []).filter((id) => id !== projectId)
        if (muted) draft.mutedAgentProjects[connectionId] = [...others, projectId]
        else if (others.length > 0) draft.mutedAgentProjects[connectionId] = others
        else delete draft.mutedAgentProjects[connectionId]
      })
      ctx.changed()
    }
  }
}
