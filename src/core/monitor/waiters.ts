// Who waits for the monitor to go idle (no poll in flight or due). Those waiting for one project's
// next poll are in its record (project-record.ts), so an unwatch lets them go with it.

export class IdleWaiters {
  private waiting: (() => void)[] = []

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** Lets everyone go when `isIdle` says so (asked only when someone waits: it walks the schedule). */
  settle(isIdle: () => boolean): void {
    if (this.waiting.length > 0 && isIdle()) this.release()
  }

  /** Lets everyone go. */
  release(): void {
    const waiters = this.waiting
    this.waiting = []
    for (const w of waiters) w()
  }
}
