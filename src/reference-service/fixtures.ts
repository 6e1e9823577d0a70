// The reference service's fixtures: the demo's three projects, and bulk projects for the benchmarks.
import { intBetween, pick, streamFor } from './random'
import type { ReferenceState } from './state'
import { TASK_NAMES } from './state'
import type { BulkCreateInput, TaskScript } from './types'

/** When the demo's failing task fails, after the demo is seeded. */
export const DEMO_FIRST_FAILURE_MS = 10_000

export function seedDemo(state: ReferenceState): { projectIds: string[] } {
  const now = state.clock.now()
  const running = state.createProject({
    name: 'Recipe Box',
    description: 'A small app to collect and search family recipes',
    user_email: 'dana@example.com',
    return_url: 'https://example.com/projects/recipe-box',
    ref_id: 'demo-1'
  })
  // Started 20 s ago, steps short enough that it finishes within the first minute.
  state.newTask(running.id, {
    name: 'Build a recipe box with search',
    text_requirement: 'Build a recipe box where I can add recipes with photos and search them by ingredient.',
    script: 'complete',
    createdAt: now - 20_000,
    durationScale: 0.55
  })

  const idle = state.createProject(
    {
      name: 'Portfolio site',
      description: 'Personal portfolio with case studies',
      user_email: 'sam@example.com',
      ref_id: 'demo-2'
    },
    { createdAt: now - 3 * 86_400_000 }
  )
  const history: [string, TaskScript, number][] = [
    ['Create the portfolio layout', 'complete', 3 * 86_400_000 - 600_000],
    ['Add a case study page', 'fail', 2 * 86_400_000],
    ['Add a case study page (second try)', 'complete', 2 * 86_400_000 - 1_800_000],
    ['Change the accent colour', 'cancel', 86_400_000],
    ['Add a contact form', 'complete', 5 * 3_600_000]
  ]
  for (const [name, script, ago] of history) state.newTask(idle.id, { name, script, createdAt: now - ago })

  const failing = state.createProject(
    {
      name: 'Team standup board',
      description: 'A board for daily standup notes',
      user_email: 'lee@example.com',
      ref_id: 'demo-3'
    },
    { createdAt: now - 600_000 }
  )
  const doomed = state.newTask(failing.id, {
    name: 'Add drag and drop between columns',
    text_requirement: 'Let me drag cards between the Yesterday, Today and Blocked columns.',
    script: 'fail',
    createdAt: now,
    durationScale: 0.35
  })
  // The first notice a new user sees: soon, yet after the app's first look.
  state.failAfter(doomed, DEMO_FIRST_FAILURE_MS)
  return { projectIds: [running.id, idle.id, failing.id] }
}

export function bulkCreate(state: ReferenceState, input: BulkCreateInput): { projectIds: string[] } {
  const now = state.clock.now()
  const active = Math.min(input.activeProjects ?? 0, input.projects)
  const projectIds: string[] = []
  const spacing = 15 * 60_000
  for (let p = 0; p < input.projects; p++) {
    const start = now - (input.tasksPerProject + 1) * spacing
    const project = state.createProject(
      { name: `Bulk project ${p + 1}`, description: 'Benchmark fixture' },
      { createdAt: start }
    )
    projectIds.push(project.id)
    for (let t = 0; t < input.tasksPerProject; t++) {
      const isActive = p < active && t === input.tasksPerProject - 1
      const r = streamFor(state.seed, `bulk:${p}:${t}`)
      state.newTask(project.id, {
        name: pick(r, TASK_NAMES),
        script: isActive ? 'run-forever' : r() < 0.85 ? 'complete' : 'fail',
        createdAt: isActive ? now - intBetween(r, 5_000, 30_000) : start + t * spacing,
        stepCount: input.stepsPerTask,
        // Fit a task of any length into its slot.
        durationScale: isActive ? 1 : Math.min(1, 12 / Math.max(1, input.stepsPerTask)),
        cachePlan: false
      })
    }
  }
  return { projectIds }
}
