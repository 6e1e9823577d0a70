// The control surface, clearly outside the interface: the programmatic ServiceControl and its
// HTTP twin under /__control/ (same API key, no faults, not counted in stats).
import { type ProjectCreate, TASK_STATUSES, type TaskStatus } from '../shared/service'
import { ApiError, badRequest, notFound } from './api-error'
import type { SimClock } from './clock'
import { faultPlanProblem, type Faults } from './faults'
import { bulkCreate, seedDemo } from './fixtures'
import { json, type Reply } from './http'
import type { ReferenceState } from './state'
import type { Stats } from './stats'
import type { AddTaskInput, BulkCreateInput, CommonControl, FaultPlan, ServiceControl, TaskScript } from './types'
import { asObject, parseProjectCreate } from './validate'

const SCRIPTS: readonly TaskScript[] = ['complete', 'fail', 'cancel', 'run-forever']

/** Time, faults and stats, the same on every fake. */
export function createCommonControl(clock: SimClock, faults: Faults, stats: Stats): CommonControl {
  return {
    now: () => new Date(clock.now()).toISOString(),
    advance: (ms) => clock.advance(ms),
    setFaults: (plan) => {
      const problem = faultPlanProblem(plan)
      if (problem) throw new Error(problem)
      faults.set(plan)
    },
    clearFaults: () => faults.clear(),
    held: () => faults.heldCount(),
    release: () => faults.release(),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset()
  }
}

export function createControl(store: ReferenceState, clock: SimClock, faults: Faults, stats: Stats): ServiceControl {
  return {
    ...createCommonControl(clock, faults, stats),
    createProject: (input = {}) => {
      const { firstTask, ...fields } = input
      return store.createProject(fields, { firstTask })
    },
    addTask: (projectId, input) => {
      const task = store.addTask(projectId, input)
      if (!task) throw new Error(`No project with id "${projectId}".`)
      return task
    },
    setTaskStatus: (taskId, status) => {
      const task = store.setTaskStatus(taskId, status)
      if (!task) throw new Error(`No task with id "${taskId}".`)
      return task
    },
    setTaskTotalPrice: (taskId, usd) => {
      if (!(Number.isFinite(usd) && usd >= 0 && usd <= 1_000_000))
        throw new Error('"usd" must be a number from 0 to 1000000.')
      const task = store.setTaskTotalPrice(taskId, usd)
      if (!task) throw new Error(`No task with id "${taskId}".`)
      return task
    },
    getTask: (taskId) => store.getTask(taskId),
    listProjects: () => store.listProjects(),
    seedDemo: () => seedDemo(store),
    bulkCreate: (input) => bulkCreate(store, input)
  }
}

function taskStatus(value: unknown, field: string): TaskStatus {
  if (typeof value !== 'string' || !(TASK_STATUSES as readonly string[]).includes(value)) {
    throw badRequest(field, `"${field}" must be one of ${TASK_STATUSES.join(', ')}.`)
  }
  return value as TaskStatus
}

function count(body: Record<string, unknown>, field: string, max: number): number {
  const v = body[field]
  if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max))
    throw badRequest(field, `"${field}" must be a whole number from 0 to ${max}.`)
  return v
}

/** The task id of `tasks/{id}/...`; a malformed %-escape is the caller's mistake (400), not ours. */
export function taskIdOf(path: string): string {
  try {
    return decodeURIComponent(path.split('/')[1] ?? '')
  } catch {
    throw badRequest('id', 'The task id in the path is not valid percent-encoding.')
  }
}

/** The control routes every fake answers (time, faults, stats); undefined for any other route. Bad input throws
 * ApiError, which each fake answers in its own words. */
export async function handleCommonControl(
  control: CommonControl,
  method: string,
  path: string,
  body: () => Promise<unknown>
): Promise<Reply | undefined> {
  switch (`${method} ${path}`) {
    case 'GET now':
      return json(200, { now: control.now() })
    case 'POST advance': {
      const b = asObject(await body())
      if (!(typeof b.ms === 'number' && Number.isFinite(b.ms) && b.ms >= 0))
        throw badRequest('ms', '"ms" must be a non-negative number.')
      control.advance(b.ms)
      return json(200, { now: control.now() })
    }
    case 'GET stats':
      return json(200, control.stats())
    case 'POST stats/reset':
      control.resetStats()
      return json(200, control.stats())
    case 'POST faults': {
      const plan = await body()
      const problem = faultPlanProblem(plan)
      if (problem) throw badRequest('rules', problem)
      control.setFaults(plan as FaultPlan)
      return json(200, plan)
    }
    case 'DELETE faults':
      control.clearFaults()
      return json(200, { rules: [] })
    case 'GET held':
      return json(200, { held: control.held() })
    case 'POST release':
      return json(200, { released: control.release() })
    default:
      return undefined
  }
}

/** Routes under /__control/. `path` has the prefix removed (e.g. `tasks/abc/status`). */
export async function handleControl(
  control: ServiceControl,
  method: string,
  path: string,
  body: () => Promise<unknown>
): Promise<Reply> {
  const common = await handleCommonControl(control, method, path, body)
  if (common) return common
  const route = `${method} ${path.replace(/^tasks\/[^/]+\/(status|total-price)$/, 'tasks/{id}/$1')}`
  switch (route) {
    case 'GET projects':
      return json(200, control.listProjects())
    case 'POST projects': {
      const raw = asObject(await body())
      const { firstTask, ...rest } = raw
      if (firstTask !== undefined && typeof firstTask !== 'boolean')
        throw badRequest('firstTask', '"firstTask" must be a boolean.')
      const fields: ProjectCreate = parseProjectCreate(rest)
      return json(201, control.createProject({ ...fields, firstTask }))
    }
    case 'POST tasks': {
      const b = asObject(await body())
      if (typeof b.project_id !== 'string') throw badRequest('project_id', '"project_id" must be a string.')
      const input: AddTaskInput = {}
      if (b.name !== undefined) {
        if (typeof b.name !== 'string') throw badRequest('name', '"name" must be a string.')
        input.name = b.name
      }
      if (b.text_requirement !== undefined) {
        if (typeof b.text_requirement !== 'string')
          throw badRequest('text_requirement', '"text_requirement" must be a string.')
        input.text_requirement = b.text_requirement
      }
      if (b.files_requirement !== undefined) {
        input.files_requirement = parseProjectCreate({ files_requirement: b.files_requirement }).files_requirement
      }
      if (b.status !== undefined) input.status = taskStatus(b.status, 'status')
      if (b.script !== undefined) {
        if (!SCRIPTS.includes(b.script as TaskScript))
          throw badRequest('script', `"script" must be one of ${SCRIPTS.join(', ')}.`)
        input.script = b.script as TaskScript
      }
      if (!control.listProjects().some((p) => p.id === b.project_id))
        throw notFound(`No project with id "${b.project_id}".`)
      return json(201, control.addTask(b.project_id, input))
    }
    case 'POST tasks/{id}/status': {
      const id = taskIdOf(path)
      const status = taskStatus(asObject(await body()).status, 'status')
      if (!control.getTask(id)) throw notFound(`No task with id "${id}".`)
      return json(200, control.setTaskStatus(id, status))
    }
    case 'POST tasks/{id}/total-price': {
      const id = taskIdOf(path)
      const usd = asObject(await body()).usd
      if (!(typeof usd === 'number' && Number.isFinite(usd) && usd >= 0 && usd <= 1_000_000)) {
        throw badRequest('usd', '"usd" must be a number from 0 to 1000000.')
      }
      if (!control.getTask(id)) throw notFound(`No task with id "${id}".`)
      return json(200, control.setTaskTotalPrice(id, usd))
    }
    case 'POST seed-demo':
      return json(200, control.seedDemo())
    case 'POST bulk': {
      const b = asObject(await body())
      const input: BulkCreateInput = {
        projects: count(b, 'projects', 10_000),
        tasksPerProject: count(b, 'tasksPerProject', 1_000),
        stepsPerTask: count(b, 'stepsPerTask', 1_000)
      }
      if (b.activeProjects !== undefined) input.activeProjects = count(b, 'activeProjects', 10_000)
      return json(200, control.bulkCreate(input))
    }
    default:
      throw new ApiError('not_found', `No control route ${method} /__control/${path}.`)
  }
}
