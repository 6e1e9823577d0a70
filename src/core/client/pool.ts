// One keep-alive connection pool per service origin, shared by every client for it, closed
// when the last client using it closes.
import { Pool } from 'undici'

interface Entry {
  pool: Pool
  users: number
}

const pools = new Map<string, Entry>()

export interface PoolLease {
  pool: Pool
  release(): Promise<void>
}

/** The connect timeout is a property of the pool's sockets, so it is part of the key. */
export function leasePool(origin: string, connectMs: number): PoolLease {
  const key = `${origin} ${connectMs}`
  let entry = pools.get(key)
  if (!entry) {
    entry = {
      pool: new Pool(origin, { connect: { timeout: connectMs }, keepAliveTimeout: 10_000, connections: 8 }),
      users: 0
    }
    pools.set(key, entry)
  }
  entry.users += 1
  const held = entry
  let released = false
  return {
    pool: held.pool,
    async release() {
      if (released) return
      released = true
      held.users -= 1
      if (held.users > 0) return
      if (pools.get(key) === held) pools.delete(key)
      await held.pool.close().catch(() => held.pool.destroy())
    }
  }
}

/** How many pools are open: for tests that check sharing and cleanup. */
export function openPoolCount(): number {
  return pools.size
}
