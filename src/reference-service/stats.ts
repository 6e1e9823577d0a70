// Request counts and response bytes per route, for benchmarks.
import type { RouteStats, ServiceStats } from './types'

export class Stats {
  private byRoute = new Map<string, RouteStats>()

  record(route: string, bytes: number, wireBytes: number): void {
    const s = this.byRoute.get(route) ?? { requests: 0, responseBytes: 0, wireBytes: 0 }
    s.requests += 1
    s.responseBytes += bytes
    s.wireBytes += wireBytes
    this.byRoute.set(route, s)
  }

  snapshot(): ServiceStats {
    const byRoute: Record<string, RouteStats> = {}
    let requests = 0
    let responseBytes = 0
    let wireBytes = 0
    for (const [route, s] of this.byRoute) {
      byRoute[route] = { ...s }
      requests += s.requests
      responseBytes += s.responseBytes
      wireBytes += s.wireBytes
    }
    return { requests, responseBytes, wireBytes, byRoute }
  }

  reset(): void {
    this.byRoute.clear()
  }
}
