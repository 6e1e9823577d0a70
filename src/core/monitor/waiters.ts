// Who waits for which project's next poll (pollNow), and for the monitor to go idle.

interface Waiter {
  /** The poll must have started at or after this sequence number. */
  minSeq: number
  resolve: () => void
}

export class PollWaiters {
  private readonly byProject = new Map<string, Waiter[]>()
  private idle: (() => void)[] = []

  /** Resolves once a poll of the project numbered `minSeq` or later has finished. */
  waitFor(projectId: string, minSeq: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const list = this.byProject.get(projectId) ?? []
      list.push({ minSeq, resolve })
      this.byProject.set(projectId, list)
    })
  }

  /** The poll numbered `seq` of the project finished (Infinity: the project is gone). */
  finished(projectId: string, seq: number): void {
    const list = this.byProject.get(projectId)
    if (!list) return
    const keep = list.filter((w) => w.minSeq > seq)
    for (const w of list) if (w.minSeq <= seq) w.resolve()
    if (keep.length > 0) this.byProject.set(projectId, keep)
    else this.byProject.delete(projectId)
  }

  /** Everyone waiting on any project, let go. */
  releaseAll(): void {
    for (const id of [...this.byProject.keys()]) this.finished(id, Number.POSITIVE_INFINITY)
  }

  waitForIdle(): Promise<void> {
    return new Promise((resolve) => this.idle.push(resolve))
  }

  /** Lets go those waiting for idle, when `isIdle` says so (or always, with force). */
  settle(force: boolean, isIdle: () => boolean): void {
    if (this.idle.length === 0) return
    if (!force && !isIdle()) return
    const waiters = this.idle
    this.idle = []
    for (const w of waiters) w()
  }
}
