// 3. Scale: 1,000 watched projects of 100 tasks with 20 steps each. The reference service runs in
// one child process, the monitor in another, so the peak memory measured is the monitor's alone
// (with its Node and tsx runtime, whose size at start is reported beside it).
import path from 'node:path'
import { check, type BenchOptions, type MeasureResult } from './result'
import type { ScaleInput, ScaleOutput } from './scale-worker'
import { REPO_ROOT, startServiceProcess } from './service-process'
import { median, round } from './stats'
import { runWorker } from './worker-process'

const API_KEY = 'bench-scale-key'

export async function runScale(options: BenchOptions): Promise<MeasureResult> {
  const fixture = options.quick
    ? { projects: 50, tasksPerProject: 100, stepsPerTask: 20, activeProjects: 3 }
    : { projects: 1000, tasksPerProject: 100, stepsPerTask: 20, activeProjects: 50 }
  const cycles = options.quick ? 2 : 1
  const service = await startServiceProcess({ apiKey: API_KEY, seed: 5, maxOldSpaceMb: 4096 })
  try {
    const { projectIds } = await service.control.bulkCreate(fixture)
    options.log(`scale: ${fixture.projects} projects × ${fixture.tasksPerProject} tasks × ${fixture.stepsPerTask} steps; ${cycles} full cycle(s)`)
    const out = await runWorker<ScaleInput, ScaleOutput>(
      path.join(REPO_ROOT, 'bench/scale-worker.ts'),
      { url: service.url, apiKey: API_KEY, projectIds, cycles },
      { maxOldSpaceMb: 8192 }
    )
    const cycleMs = median(out.cycles.map((c) => c.wall_ms))
    const peak = Math.max(out.peak_rss_mb, out.max_rss_mb)
    const first = out.cycles[0]
    const notes: string[] = []
    if (first && first.wall_ms > 2000) {
      notes.push(
        `A full cycle moves ${round(first.bytes / 1024 / 1024)} MB: GET /projects/{id}/tasks embeds every task's steps and the interface has no paging or "changed since" filter, so each cycle downloads and parses the whole fixture; the monitor process itself spent ${round(first.cpu_ms / 1000)} s of CPU on it.`
      )
    }
    return {
      figures: { cycle_ms: round(cycleMs), peak_rss_mb: round(peak) },
      checks: [check('cycle_ms', cycleMs, '<=', 2000), check('peak_rss_mb', peak, '<=', 200)],
      details: {
        fixture,
        cycles: out.cycles.map((c) => ({ wall_ms: round(c.wall_ms), monitor_cpu_ms: round(c.cpu_ms), requests: c.requests, response_mb: round(c.bytes / 1024 / 1024) })),
        baseline_rss_mb: out.baseline_rss_mb,
        sampled_peak_rss_mb: out.peak_rss_mb,
        max_rss_mb: out.max_rss_mb,
        heap_used_mb: out.heap_used_mb,
        tasks_held: out.tasks_held,
        steps_held: out.steps_held,
        concurrency: 'default (maxConcurrency 4)'
      },
      notes
    }
  } finally {
    await service.close()
  }
}
