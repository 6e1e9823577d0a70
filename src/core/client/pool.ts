// One undici Agent (a keep-alive pool per origin) shared by every client, closed when the last
// client using it closes.
import { Agent } from 'undici'

interface Entry {
  agent: Agent
  users: number
}

/** By connect timeout: it is a property of the agent's sockets. */
const agents = new Map<number, Entry>()

export interface AgentLease {
  agent: Agent
  release(): Promise<void>
}

export function leaseAgent(connectMs: number): AgentLease {
  let entry = agents.get(connectMs)
  if (!entry) {
    entry = {
      agent: new Agent({ connect: { timeout: connectMs }, keepAliveTimeout: 10_000, connections: 8 }),
      users: 0
    }
    agents.set(connectMs, entry)
  }
  entry.users += 1
  const held = entry
  let released = false
  return {
    agent: held.agent,
    async release() {
      if (released) return
      released = true
      held.users -= 1
      if (held.users > 0) return
      if (agents.get(connectMs) === held) agents.delete(connectMs)
      await held.agent.close().catch(() => held.agent.destroy())
    }
  }
}

/** How many agents are open: for tests that check sharing and cleanup. */
export function openPoolCount(): number {
  return agents.size
}
