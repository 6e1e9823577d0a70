// 3. Scale: 1,000 watched projects of 100 tasks with 20 steps each. The reference service runs in
// one child process, the monitor in another, so the peak memory measured is the monitor's alone
// (with its Node and tsx runtime, whose size at start is reported beside it).
// Two kinds of cycle are timed: the cold one (the first: every list downloaded, parsed and
// baselined; `cycle_ms` and `cold_cycle_ms`) and steady ones (later cycles, where lists unchanged
// since the last cycle come back 304 to the monitor's If-None-Match; `steady_cycle_ms`, a median).
import os from 'node:os'
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
  // One cold cycle, then steady ones.
  const cycles = 3
  const service = await startServiceProcess({ apiKey: API_KEY, seed: 5, maxOldSpaceMb: 4096 })
  try {
    const { projectIds } = await service.control.bulkCreate(fixture)
    options.log(`scale: ${fixture.projects} projects × ${fixture.tasksPerProject} tasks × ${fixture.stepsPerTask} steps; 1 cold full cycle, then ${cycles - 1} steady ones`)
    const out = await runWorker<ScaleInput, ScaleOutput>(
      path.join(REPO_ROOT, 'bench/scale-worker.ts'),
      // Default heap settings: what the app gets.
      { url: service.url, apiKey: API_KEY, projectIds, cycles, servicePid: service.pid }
    )
    const cold = out.cycles.find((c) => c.kind === 'cold')
    const steady = out.cycles.filter((c) => c.kind === 'steady')
    const coldMs = cold?.wall_ms ?? Number.NaN
    const steadyMs = median(steady.map((c) => c.wall_ms))
    const peak = Math.max(out.peak_rss_mb, out.max_rss_mb)
    const notes: string[] = [
      'cycle_ms = cold_cycle_ms: the first full cycle, nothing known yet (every list downloaded, parsed, baselined). steady_cycle_ms: the median later full cycle, lists unchanged since the last one answered 304.'
    ]
    if (cold && cold.wall_ms > 2000) {
      notes.push(
        `The cold cycle moves ${round(cold.bytes / 1024 / 1024)} MB: GET /projects/{id}/tasks embeds every task's steps and the interface has no paging or "changed since" filter, so it downloads and parses the whole fixture; the monitor process itself spent ${round(cold.cpu_ms / 1000)} s of CPU on it.`
      )
    }
    const last = steady[steady.length - 1]
    if (last) {
      options.log(`scale: cold cycle ${round(coldMs)} ms (${round((cold?.bytes ?? 0) / 1024 / 1024)} MB); steady cycle ${round(steadyMs)} ms, ${last.not_modified} of ${projectIds.length} lists unchanged (304), ${last.lists} in full, ${last.details} details fetched`)
      options.log(`scale: peak RSS ${round(peak)} MB (${out.baseline_rss_mb} MB at start); heap ${out.heap_used_mb} MB after the last cycle, ${out.heap_after_gc_mb} MB after a full GC`)
    }
    for (const c of steady) {
      if (c.wall_ms <= 2000 || c.service_cpu_ms === null) continue
      notes.push(
        `A steady cycle of ${round(c.wall_ms)} ms: ${c.lists} lists changed (their tasks still running) and came in full, ${c.details} steps-and-usages fetched; the service spent ${round(c.service_cpu_ms)} ms of CPU, the monitor ${round(c.cpu_ms)} ms; the rest is waiting (machine load ${round(os.loadavg()[0] ?? 0, 2)} on ${os.cpus().length} cores).`
      )
    }
    return {
      figures: { cycle_ms: round(coldMs), cold_cycle_ms: round(coldMs), steady_cycle_ms: round(steadyMs), peak_rss_mb: round(peak) },
      checks: [
        check('cycle_ms', coldMs, '<=', 2000),
        check('cold_cycle_ms', coldMs, '<=', 2000),
        check('steady_cycle_ms', steadyMs, '<=', 2000),
        check('peak_rss_mb', peak, '<=', 200)
      ],
      details: {
        fixture,
        cycles: out.cycles.map((c) => ({
          kind: c.kind,
          wall_ms: round(c.wall_ms),
          monitor_cpu_ms: round(c.cpu_ms),
          service_cpu_ms: c.service_cpu_ms === null ? null : round(c.service_cpu_ms),
          full_lists: c.lists,
          details_fetched: c.details,
          requests: c.requests,
          not_modified: c.not_modified,
          response_mb: round(c.bytes / 1024 / 1024)
        })),
        baseline_rss_mb: out.baseline_rss_mb,
        sampled_peak_rss_mb: out.peak_rss_mb,
        max_rss_mb: out.max_rss_mb,
        heap_used_mb: out.heap_used_mb,
        heap_after_gc_mb: out.heap_after_gc_mb,
        heap_limit_mb: out.heap_limit_mb,
        tasks_held: out.tasks_held,
        steps_held: out.steps_held,
        summaries_held: out.summaries_held,
        concurrency: 'default (maxConcurrency 4)'
      },
      notes
    }
  } finally {
    await service.close()
  }
}
