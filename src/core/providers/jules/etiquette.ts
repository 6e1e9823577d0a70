// Jules' polling etiquette: a session's activities are read again only when its updateTime moved since they were last
// read, so an account of many idle sessions costs one paged list per poll.
import type { JulesActivity, JulesSession } from './schemas'

export class ActivityBook {
  private readonly read = new Map<string, { updateTime: string; activities: JulesActivity[] }>()

  /** The sessions whose activities must be read: new ones, and those whose updateTime moved (or is not given). */
  due(sessions: readonly JulesSession[]): JulesSession[] {
    return sessions.filter((s) => {
      const seen = this.read.get(s.id)
      return seen === undefined || s.updateTime === '' || seen.updateTime !== s.updateTime
    })
  }

  /** Activities read for a session as it was at `updateTime`. */
  record(session: JulesSession, activities: JulesActivity[]): void {
    this.read.set(session.id, { updateTime: session.updateTime, activities })
  }

  activities(sessionId: string): JulesActivity[] | undefined {
    return this.read.get(sessionId)?.activities
  }

  /** Sessions the account no longer lists are forgotten, so the book stays the size of the list. */
  keepOnly(sessions: readonly JulesSession[]): void {
    const ids = new Set(sessions.map((s) => s.id))
    for (const id of this.read.keys()) if (!ids.has(id)) this.read.delete(id)
  }
}
