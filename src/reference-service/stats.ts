// Request counts and response bytes per route, for benchmarks.
import type { RouteStats, ServiceStats } from './types'

export class Stats {
  private byRoute = new Map<string, RouteStats>()

  record(route: string, bytes: number): void {
    const s = this.byRoute.get(route) ?? { requests: 0, responseBytes: 0 }
    s.requests += 1
    s.responseBytes += bytes
    this.byRoute.set(route, s)
  }

  snapshot(): ServiceStats {
    const byRoute: Record<string, RouteStats> = {}
    let requests = 0
    let responseBytes = 0
    for (const [route, s] of this.byRoute) {
      byRoute[route] = { ...s }
      requests += s.requests
      responseBytes += s.responseBytes
    }
    return { requests, responseBytes, byRoute }
  }

  reset(): void {
    this.byRoute.clear()
  }
}
