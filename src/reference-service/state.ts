// The reference service's state (ReferenceState): projects, task records (plans are derived, cached only for ordinary
// tasks so bulk fixtures stay small), published sub-domains, and the operations on them.
import { checkPublishHostname, subdomainOf } from '../shared/hostname'
import type { FileRequirement, ProjectCreate, ProjectUpdate, TaskStatus } from '../shared/service'
import type { SimClock } from './clock'
import { planDuration, planTask, type TaskPlan } from './plan'
import { hexFrom, pick, streamFor, uuidFrom } from './random'
import { nextChangeAt, stepsAt, taskAt, usagesAt } from './timeline'
import type {
  AddTaskInput,
  TaskCreate,
  TaskRecord,
  TaskScript,
  WireProject,
  WirePublishResult,
  WireStep,
  WireStepsAndUsages,
  WireTask
} from './types'

const TEMPLATES = ['react-vite', 'react-vite', 'react-vite', 'vue-vite', 'svelte-vite'] as const

export const TASK_NAMES = [
  'Build a recipe box with search',
  'Add a dark mode toggle',
  'Create a landing page with pricing',
  'Fix the broken mobile menu',
  'Add a contact form',
  'Show tasks grouped by due date',
  'Replace the logo and colours',
  'Add a settings page'
] as const

export class ReferenceState {
  readonly projects = new Map<string, WireProject>()
  private readonly tasksByProject = new Map<string, string[]>()
  private readonly tasks = new Map<string, TaskRecord>()
  private readonly plans = new Map<string, TaskPlan>()
  /** sub-domain → project id */
  private readonly published = new Map<string, string>()
  private readonly publishedBy = new Map<string, string>()
  private projectCount = 0
  private taskCount = 0
  /** Bumped by every change to task records, so a remembered list ETag can tell it is stale. */
  private taskChanges = 0
  private readonly listEtags = new Map<string, { etag: string; changes: number; until: number }>()

  constructor(
    readonly seed: number,
    readonly clock: SimClock,
    readonly publishingDomain: string,
    private readonly baseUrl: () => string
  ) {}

  // --- projects -----------------------------------------------------------------------------

  createProject(input: ProjectCreate, options: { firstTask?: boolean; createdAt?: number } = {}): WireProject {
    const n = ++this.projectCount
    const r = streamFor(this.seed, `project:${n}`)
    const id = uuidFrom(r)
    const at = new Date(options.createdAt ?? this.clock.now()).toISOString()
    const project: WireProject = {
      id,
      software_product_id: input.software_product_id ?? uuidFrom(streamFor(this.seed, 'software-product')),
      name: input.name ?? `Untitled project ${n}`,
      description: input.description ?? '',
      project_type: 'web',
      project_template_type: pick(r, TEMPLATES),
      created_at: at,
      updated_at: at,
      user_email: input.user_email ?? '',
      prebuilt_url: `${this.baseUrl()}/prebuilt/${id}`,
      return_url: input.return_url ?? '',
      ref_id: input.ref_id ?? ''
    }
    this.projects.set(id, project)
    this.tasksByProject.set(id, [])
    const text = input.text_requirement ?? ''
    if (options.firstTask ?? text.trim() !== '') {
      const script = pick(r, [
        'complete',
        'complete',
        'complete',
        'complete',
        'complete',
        'complete',
        'fail',
        'fail',
        'cancel'
      ] as const)
      this.newTask(id, {
        text_requirement: text,
        files_requirement: input.files_requirement ?? [],
        script,
        createdAt: options.createdAt
      })
    }
    return { ...project }
  }

  getProject(id: string): WireProject | undefined {
    const p = this.projects.get(id)
    return p && { ...p }
  }

  /** Applies an already validated update all at once. */
  updateProject(id: string, update: ProjectUpdate): WireProject | undefined {
    const p = this.projects.get(id)
    if (!p) return undefined
    if (Object.keys(update).length > 0) {
      Object.assign(p, update)
      p.updated_at = new Date(Math.max(this.clock.now(), Date.parse(p.updated_at))).toISOString()
    }
    return { ...p }
  }

  listProjects(): WireProject[] {
    return [...this.projects.values()].map((p) => ({ ...p }))
  }

  /** GET /projects?software_product_id=…&order_by=…: a product's projects by creation time. */
  listProjectsOfProduct(productId: string, order: 'ASC' | 'DESC'): WireProject[] {
    const projects = this.listProjects().filter((p) => p.software_product_id === productId)
    projects.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    return order === 'ASC' ? projects : projects.reverse()
  }

  publish(projectId: string, hostname: string): WirePublishResult | undefined {
    if (!this.projects.has(projectId)) return undefined
    const reasons = checkPublishHostname(hostname, this.publishingDomain)
    const sub = subdomainOf(hostname, this.publishingDomain)
    if (reasons.length > 0 || sub === undefined) {
      return { status: 'failed', message: reasons.length > 0 ? reasons : ['The hostname is not valid.'] }
    }
    const owner = this.published.get(sub)
    if (owner !== undefined && owner !== projectId) {
      return { status: 'failed', message: [`The sub-domain "${sub}" is already taken by another project.`] }
    }
    // A project lives at one sub-domain: publishing elsewhere frees the old one.
    const previous = this.publishedBy.get(projectId)
    if (previous !== undefined && previous !== sub) this.published.delete(previous)
    this.published.set(sub, projectId)
    this.publishedBy.set(projectId, sub)
    return { status: 'success', message: [`Published to https://${hostname}`] }
  }

  // --- tasks --------------------------------------------------------------------------------

  /** A task record of a script (fixtures use it directly). */
  newTask(
    projectId: string,
    input: {
      name?: string
      text_requirement?: string
      files_requirement?: FileRequirement[]
      script: TaskScript
      createdAt?: number
      stepCount?: number
      durationScale?: number
      cachePlan?: boolean
    }
  ): TaskRecord {
    const n = ++this.taskCount
    const r = streamFor(this.seed, `task:${n}`)
    const id = uuidFrom(r)
    const text = input.text_requirement ?? ''
    const name = input.name ?? (text.trim() !== '' ? summarise(text) : pick(r, TASK_NAMES))
    const record: TaskRecord = {
      id,
      projectId,
      name,
      description: text.trim() !== '' ? text : name,
      text_requirement: text !== '' ? text : name,
      files_requirement: (input.files_requirement ?? []).map((f) => ({ file_type: f.file_type, url: f.url })),
      branch: `agent/task-${n}-${hexFrom(r, 6)}`,
      createdAt: input.createdAt ?? this.clock.now(),
      script: input.script,
      stepCount: input.stepCount,
      durationScale: input.durationScale ?? 1,
      cachePlan: input.cachePlan ?? true
    }
    this.tasks.set(id, record)
    this.tasksByProject.get(projectId)?.push(id)
    this.taskChanges++
    return record
  }

  private planOf(record: TaskRecord): TaskPlan {
    const cached = this.plans.get(record.id)
    if (cached) return cached
    const plan = planTask({
      seed: this.seed,
      taskId: record.id,
      createdAt: record.createdAt,
      script: record.script,
      stepCount: record.stepCount,
      hasImages: record.files_requirement.length > 0,
      durationScale: record.durationScale
    })
    if (record.cachePlan) this.plans.set(record.id, plan)
    return plan
  }

  /** POST /tasks: a new task from now on, run like the first task of a project. */
  createTask(input: TaskCreate): WireTask | undefined {
    if (!this.projects.has(input.project_id)) return undefined
    const r = streamFor(this.seed, `created-task:${this.taskCount + 1}`)
    const script = pick(r, ['complete', 'complete', 'complete', 'complete', 'complete', 'fail', 'cancel'] as const)
    const record = this.newTask(input.project_id, {
      name: input.name,
      text_requirement: input.text_requirement,
      script
    })
    return this.taskView(record, this.clock.now())
  }

  /** Adds a task that is in `status` now: earlier states are placed in the simulated past. */
  addTask(projectId: string, input: AddTaskInput = {}): WireTask | undefined {
    if (!this.projects.has(projectId)) return undefined
    const now = this.clock.now()
    const status = input.status
    const script: TaskScript =
      input.script ??
      (status === 'failed'
        ? 'fail'
        : status === 'cancelled'
          ? 'cancel'
          : status === 'in_progress'
            ? 'run-forever'
            : 'complete')
    const record = this.newTask(projectId, {
      name: input.name,
      text_requirement: input.text_requirement,
      files_requirement: input.files_requirement,
      script,
      createdAt: now
    })
    if (status !== undefined && status !== 'todo') {
      const plan = planTask({
        seed: this.seed,
        taskId: record.id,
        createdAt: 0,
        script,
        hasImages: record.files_requirement.length > 0,
        durationScale: record.durationScale
      })
      const back =
        status === 'in_progress' ? (plan.steps[0]?.startAt ?? plan.startAt) + 1 : planDuration(plan, 0) + 1000
      record.createdAt = now - back
      this.plans.delete(record.id)
      const actual = taskAt(record, this.planOf(record), now).status
      // A script that cannot reach the asked status (e.g. 'complete' asked to be 'failed') is pinned.
      if (actual !== status) record.override = { status, at: now }
      this.taskChanges++
    }
    return this.taskView(record, now)
  }

  setTaskStatus(taskId: string, status: TaskStatus): WireTask | undefined {
    const record = this.tasks.get(taskId)
    if (!record) return undefined
    const now = this.clock.now()
    record.override = { status, at: now }
    this.taskChanges++
    return this.taskView(record, now)
  }

  /** Makes the task report `usd` as its total_price from now on, whatever its records add up to. */
  setTaskTotalPrice(taskId: string, usd: number): WireTask | undefined {
    const record = this.tasks.get(taskId)
    if (!record) return undefined
    record.totalPriceOverride = usd
    this.taskChanges++
    return this.taskView(record, this.clock.now())
  }

  private taskView(record: TaskRecord, t: number): WireTask {
    return taskAt(record, this.planOf(record), t)
  }

  getTask(taskId: string): WireTask | undefined {
    const record = this.tasks.get(taskId)
    return record && this.taskView(record, this.clock.now())
  }

  listTasks(projectId: string): WireTask[] | undefined {
    return this.listTasksUntil(projectId)?.tasks
  }

  /** The task list, and the simulated moment until which it stays exactly this. */
  listTasksUntil(projectId: string): { tasks: WireTask[]; until: number } | undefined {
    const ids = this.tasksByProject.get(projectId)
    if (!ids) return undefined
    const now = this.clock.now()
    let until = Number.POSITIVE_INFINITY
    const tasks = ids.map((id) => {
      const record = this.tasks.get(id) as TaskRecord
      const plan = this.planOf(record)
      until = Math.min(until, nextChangeAt(record, plan, now))
      return taskAt(record, plan, now)
    })
    return { tasks, until }
  }

  /** Remembers the ETag of a list read now, valid until `until` or the next change to any task. */
  rememberListEtag(projectId: string, etag: string, until: number): void {
    this.listEtags.set(projectId, { etag, changes: this.taskChanges, until })
  }

  /** The ETag of the project's list when it cannot have changed since it was remembered. */
  currentListEtag(projectId: string): string | undefined {
    const c = this.listEtags.get(projectId)
    if (!c || c.changes !== this.taskChanges || this.clock.now() >= c.until) return undefined
    return c.etag
  }

  steps(taskId: string): WireStep[] | undefined {
    const record = this.tasks.get(taskId)
    return record && stepsAt(record, this.planOf(record), this.clock.now())
  }

  stepsAndUsages(taskId: string): WireStepsAndUsages | undefined {
    const record = this.tasks.get(taskId)
    if (!record) return undefined
    const plan = this.planOf(record)
    const now = this.clock.now()
    return { steps: stepsAt(record, plan, now), usages: usagesAt(record, plan, now) }
  }

  /** Sets a task back by its drawn length so that it fails `ms` from now, whatever the seed. */
  failAfter(record: TaskRecord, ms: number): void {
    const now = this.clock.now()
    const length = (this.planOf(record).end?.at ?? now) - now
    record.createdAt = now - Math.max(0, length - ms)
    this.plans.delete(record.id)
  }
}

function summarise(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? text).trim()
  return line.length <= 60 ? line : `${line.slice(0, 57).trimEnd()}...`
}
