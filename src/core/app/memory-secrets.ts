// Keys kept in memory only: for tests and the e2e host (keychain behaviour is core/secrets' job).
import type { AppSecrets } from './deps'

export class MemorySecrets implements AppSecrets {
  readonly backend = 'session-only' as const
  readonly detail = 'Keys are kept in memory for this session only.'
  private readonly keys = new Map<string, string>()

  async get(connectionId: string): Promise<string | null> {
    return this.keys.get(connectionId) ?? null
  }

  async set(connectionId: string, apiKey: string): Promise<void> {
    this.keys.set(connectionId, apiKey)
  }

  async delete(connectionId: string): Promise<boolean> {
    return this.keys.delete(connectionId)
  }

  async has(connectionId: string): Promise<boolean> {
    return this.keys.has(connectionId)
  }
}
