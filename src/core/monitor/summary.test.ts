import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { costOnDay, localDateKey, projectCost, type UsagesByTask } from '../../shared/cost'
import type { Task, TaskStatus, UsageRecord } from '../../shared/service'
import { isActive } from '../../shared/status'
import { digestTask } from '../client/digest'
import { parseTaskDigests } from '../client/parse'
import { summarizeTasks, summaryCost, summaryCostToday } from './summary'

const NOW = Date.parse('2026-03-29T01:30:00.000Z')
const STATUSES: TaskStatus[] = ['todo', 'in_progress', 'completed', 'failed', 'cancelled']

/** A price up to `max`, or now and then one that is no finite number. */
const price = (max: number) =>
  fc.oneof(
    { arbitrary: fc.double({ min: 0, max, noNaN: true }), weight: 4 },
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY)
  )

const time = fc.oneof(
  fc.integer({ min: NOW - 4 * 86_400_000, max: NOW + 86_400_000 }).map((ms) => new Date(ms).toISOString()),
  fc.constant('not a date')
)

const taskArb = (i: number) =>
  fc
    .record({
      status: fc.constantFrom(...STATUSES, 'unknown' as const),
      created_at: time,
      updated_at: time,
      stepTimes: fc.array(time, { maxLength: 3 }),
      // A price that is no finite number (NaN, Infinity: neither is JSON) counts as none, as in shared/cost.
      total_price: fc.option(price(50), { nil: null })
    })
    .map((t): Task => ({
      id: `t${i}`,
      project_id: 'p',
      name: `t${i}`,
      description: '',
      status: t.status,
      text_requirement: '',
      files_requirement: [],
      created_at: t.created_at,
      updated_at: t.updated_at,
      branch: '',
      total_price: t.total_price,
      steps: t.stepTimes.map((u, j) => ({
        id: `s${j}`,
        task_id: `t${i}`,
        name: '',
        description: '',
        status: 'completed',
        type: null,
        metadata: {},
        created_at: u,
        updated_at: u
      }))
    }))

const tasksArb = fc
  .integer({ min: 0, max: 12 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => taskArb(i))))

function usage(final_price: number): UsageRecord {
  return {
    id: `u${final_price}`,
    task_id: '',
    usage_type: '',
    provider: '',
    model: '',
    remark: '',
    request_data: {},
    response_data: {},
    usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    price: {},
    final_price,
    created_at: '',
    updated_at: ''
  }
}

/** The reference: lastActivity as project-view had it over the full list. */
function lastActivityOf(tasks: readonly Task[]): string | null {
  let best: number | null = null
  for (const t of tasks) {
    for (const iso of [t.updated_at, ...t.steps.map((s) => s.updated_at)]) {
      const ms = Date.parse(iso)
      if (Number.isFinite(ms) && (best === null || ms > best)) best = ms
    }
  }
  return best === null ? null : new Date(best).toISOString()
}

describe('summarizeTasks', () => {
  it('gives the same figures as shared/cost over the full list, for any tasks, time zone and usages', () => {
    fc.assert(
      fc.property(
        tasksArb,
        fc.oneof(
          fc.integer({ min: -12 * 60, max: 14 * 60 }),
          fc.constant((at: Date) => (at.getUTCMonth() > 2 ? 120 : 60))
        ),
        fc.array(price(3), { maxLength: 3 }),
        (tasks, tz, prices) => {
          const usagesByTask: UsagesByTask = Object.fromEntries(
            tasks.filter((_, i) => i % 2 === 0).map((t) => [t.id, prices.map(usage)])
          )
          const s = summarizeTasks(tasks)
          // The same summary from digests, whether their steps were built or only folded.
          expect(summarizeTasks(tasks.map(digestTask))).toStrictEqual(s)
          expect(summarizeTasks(parseTaskDigests(JSON.parse(JSON.stringify(tasks))))).toStrictEqual(s)
          expect(s.total).toBe(tasks.length)
          expect(s.running).toBe(tasks.filter((t) => isActive(t.status)).length)
          expect(s.failed).toBe(tasks.filter((t) => t.status === 'failed').length)
          expect(s.lastActivityAt).toBe(lastActivityOf(tasks))
          for (const usages of [undefined, usagesByTask]) {
            const cost = projectCost(tasks, usages)
            expect(summaryCost(s, usages)).toEqual({ totalUsd: cost.totalUsd, runningUsd: cost.runningUsd })
            expect(summaryCostToday(s, NOW, tz, usages)).toBe(costOnDay(tasks, localDateKey(NOW, tz), tz, usages))
            // An unreadable now has no day: not even a task whose own time is unreadable is on it.
            expect(summaryCostToday(s, Number.NaN, tz, usages)).toBe(
              costOnDay(tasks, localDateKey(Number.NaN, tz), tz, usages)
            )
          }
        }
      ),
      { numRuns: 400 }
    )
  })

  it('keeps no task or step objects', () => {
    const tasks = fc.sample(taskArb(0), 5)
    const s = summarizeTasks(tasks)
    expect(s.total).toBe(5)
    expect(Object.values(s).some((v) => Array.isArray(v))).toBe(false)
  })
})
