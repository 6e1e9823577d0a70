// The agent channels as i36 fixes them, until the branch that adds them to the IPC contract is merged: the same
// bridge, typed by their shapes. Removed at that merge; callers then use the Bridge itself.
import type { AgentTaskView, Bridge, ConnectionView, IpcResult } from '../../shared/ipc'
import type { Connection } from '../../shared/settings'

export interface AgentChannels {
  'agent:task': (request: { connectionId: string; taskId: string }) => Promise<IpcResult<AgentTaskView>>
  'agent:approve': (request: { connectionId: string; taskId: string }) => Promise<IpcResult<void>>
  'agent:reply': (request: { connectionId: string; taskId: string; message: string }) => Promise<IpcResult<void>>
  'agent:mute-project': (request: {
    connectionId: string
    projectId: string
    muted: boolean
  }) => Promise<IpcResult<void>>
  'connection:save': (request: {
    connection: Omit<Connection, 'id' | 'service'> & { id?: string }
    apiKey?: string
    service?: string
  }) => Promise<IpcResult<ConnectionView>>
}

export const agentBridge = (b: Bridge): AgentChannels => b as unknown as AgentChannels
