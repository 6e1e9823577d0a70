// 5. Idle cost: the CPU share of the core watching idle projects (every task ended) on the real
// clock. The monitor runs alone in a child process, the reference service in another, so the
// service's work answering is not counted. The share is one round's CPU time (every project
// polled once) over the idle interval, the mean time between two polls of a project.
import path from 'node:path'
import { DEFAULT_POLLING_PREFS, type PollingPrefs } from '../src/shared/settings'
import type { IdleInput, IdleOutput } from './idle-worker'
import { type BenchOptions, check, type MeasureResult } from './result'
import { REPO_ROOT, startServiceProcess } from './service-process'
import { round } from './stats'
import { runWorker } from './worker-process'

const API_KEY = 'bench-idle-key'

export async function runIdle(options: BenchOptions): Promise<MeasureResult> {
  const fixture = { projects: options.quick ? 50 : 100, tasksPerProject: 10, stepsPerTask: 15, activeProjects: 0 }
  // Quick mode polls four times as often: a pessimistic stand-in for the real minute.
  const polling: PollingPrefs = options.quick
    ? { ...DEFAULT_POLLING_PREFS, idleIntervalMs: 15_000 }
    : DEFAULT_POLLING_PREFS
  const service = await startServiceProcess({ apiKey: API_KEY, seed: 9 })
  try {
    const { projectIds } = await service.control.bulkCreate(fixture)
    options.log(
      `idle: ${fixture.projects} idle projects, idle interval ${polling.idleIntervalMs / 1000} s, about ${Math.round((polling.idleIntervalMs * 1.1) / 1000)} s`
    )
    const out = await runWorker<IdleInput, IdleOutput>(path.join(REPO_ROOT, 'bench/idle-worker.ts'), {
      url: service.url,
      apiKey: API_KEY,
      projectIds,
      polling
    })
    const percent = (out.cpu_ms / polling.idleIntervalMs) * 100
    const notes: string[] = []
    if (out.requests !== fixture.projects)
      notes.push(`The window held ${out.requests} polls, not one per project (${fixture.projects}).`)
    return {
      figures: { cpu_percent: round(percent, 2) },
      checks: [check('cpu_percent', percent, '<=', 0.5)],
      details: {
        fixture,
        idle_interval_ms: polling.idleIntervalMs,
        window_s: round(out.wall_ms / 1000),
        cpu_ms_in_window: round(out.cpu_ms),
        cpu_percent_of_window: round((out.cpu_ms / out.wall_ms) * 100, 2),
        polls_in_window: out.requests,
        response_mb_in_window: round(out.response_bytes / 1024 / 1024, 2),
        first_round: {
          cpu_ms: round(out.first_round_cpu_ms),
          wall_ms: round(out.first_round_ms),
          note: 'start-up: includes loading and JIT warm-up'
        },
        rss_mb: out.rss_mb
      },
      notes
    }
  } finally {
    await service.close()
  }
}
