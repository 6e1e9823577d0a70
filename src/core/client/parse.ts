// Turns response bodies into the shared service types. Pure: no I/O, and whatever comes in,
// the only thing that leaves besides a result is a ServiceError.
import type { z } from 'zod'
import { isJsonObject } from '../../shared/json-object'
import type { Project, PublishResult, StepsAndUsages, Task, TaskStep, UsageRecord } from '../../shared/service'
import { isActive } from '../../shared/status'
import { digestOf, StepsFold, type TaskDigest } from './digest'
import { fastStep, fastTask, isFastStep, type TaskHead } from './fast'
import { projectSchema, publishSchema, stepsAndUsagesSchema, stepSchema, taskSchema, usageSchema } from './schemas'
import { ServiceError, shorten } from './service-error'

/** One record of a list that could not be read; it was dropped, its siblings were kept. */
export interface InvalidRecordIssue {
  resource: 'project' | 'task' | 'step' | 'usage'
  /** Its position in the list it came from. */
  index: number
  id?: string
  /** Where in the body, e.g. '[3].steps[0].id'. */
  path: string
  message: string
}

export type ReportInvalidRecord = (issue: InvalidRecordIssue) => void

const ignore: ReportInvalidRecord = () => {}

// Where in the body: the record's place (`base`) and the issue's path keys. Lists are read item by item so one bad
// record drops alone; a list's index is therefore always in `base`.
function formatPath(base: string, keys: readonly PropertyKey[]): string {
  let out = base
  for (const key of keys) out += out === '' ? String(key) : `.${String(key)}`
  return out
}

function firstIssue(error: z.ZodError, base: string): { path: string; message: string } {
  // A parse fails with at least one issue.
  const issue = error.issues[0] as z.core.$ZodIssue
  return { path: formatPath(base, issue.path) || '(body)', message: issue.message }
}

function invalid(message: string, details: ServiceError['details']): ServiceError {
  return new ServiceError('invalid_response', message, { details })
}

/** Runs a parser and turns anything unexpected into invalid_response: never a bare throw. */
function guard<T>(what: string, run: () => T): T {
  try {
    return run()
  } catch (e) {
    if (e instanceof ServiceError) throw e
    const reason = e instanceof Error ? e.message : String(e)
    throw invalid(`The service sent ${what} we cannot read (${shorten(reason, 100)}).`, { record: what })
  }
}

/** The body as JSON; an empty or non-JSON body is invalid_response, quoting its start. */
export function decodeJson(body: string, what: string): unknown {
  if (body.trim() === '') {
    throw invalid(`The service sent an empty body where ${what} was expected.`, { reason: 'empty', record: what })
  }
  try {
    return JSON.parse(body)
  } catch (e) {
    // JSON.parse of a string throws only a SyntaxError.
    const why = (e as SyntaxError).message
    throw invalid(
      `The service sent a body that is not JSON where ${what} was expected (${shorten(why, 80)}): ${shorten(body, 80)}`,
      { reason: 'not_json', record: what }
    )
  }
}

function recordId(v: unknown): string | undefined {
  if (!isJsonObject(v)) return undefined
  const id = v.id
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : undefined
}

/** Whether parsers may take well-formed records the fast way (tests turn it off to compare). */
let fastPath = true

/** For tests: runs `run` with the fast path off, so only the schemas parse. */
export function withSchemasOnly<T>(run: () => T): T {
  const before = fastPath
  // Stryker disable next-line BooleanLiteral: equivalent, the fast path gives what the schemas give (parse.fast.test.ts): only the time differs
  fastPath = false
  try {
    return run()
  } finally {
    fastPath = before
  }
}

type Fast<T> = ((item: unknown) => T | undefined) | null

/** Who hears of a dropped record, and how to name it; null: no one (nothing to name it for). */
interface Reporting {
  resource: InvalidRecordIssue['resource']
  /** Where the list is in the body: '' for the body itself, e.g. '[3].steps'. */
  base: string
  report: ReportInvalidRecord
}

function parseList<T>(
  items: readonly unknown[],
  schema: z.ZodType<T>,
  fast: Fast<T>,
  reporting: Reporting | null
): T[] {
  const out: T[] = []
  for (let index = 0; index < items.length; index++) {
    const value = parseRecord(items[index], index, schema, fast, reporting)
    if (value !== undefined) out.push(value)
  }
  return out
}

/** One record of a list: the fast way when it is well formed, else the schema's (reporting a drop). */
function parseRecord<T>(
  item: unknown,
  index: number,
  schema: z.ZodType<T>,
  fast: Fast<T>,
  reporting: Reporting | null
): T | undefined {
  // Stryker disable next-line BlockStatement: equivalent, the schema gives what the fast way gives (parse.fast.test.ts): only the time differs
  if (fast && fastPath) {
    const quick = fast(item)
    if (quick !== undefined) return quick
  }
  const r = schema.safeParse(item)
  if (r.success) return r.data
  if (reporting) {
    const { path, message } = firstIssue(r.error, `${reporting.base}[${index}]`)
    const issue: InvalidRecordIssue = { resource: reporting.resource, index, path, message }
    const id = recordId(item)
    if (id !== undefined) issue.id = id
    reporting.report(issue)
  }
  return undefined
}

/** The task schema, shaped as the fast path's answer. */
const taskHeadSchema = taskSchema.transform(({ rawSteps, ...task }): { task: TaskHead; rawSteps: unknown[] } => ({
  task,
  rawSteps
}))

function expectList(body: unknown, what: string): unknown[] {
  if (Array.isArray(body)) return body
  throw wrongShape(body, `a list of ${what}`, what)
}

/** A body that is not the list or object expected, named by what it is. */
function wrongShape(body: unknown, expected: string, what: string): ServiceError {
  return invalid(`The service sent ${describe(body)} where ${expected} was expected.`, {
    reason: 'wrong_shape',
    record: what,
    path: '(body)'
  })
}

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'an object'
  return `a ${typeof v}`
}

function parseOne<T>(body: unknown, schema: z.ZodType<T>, what: string): T {
  const r = schema.safeParse(body)
  if (r.success) return r.data
  if (!isJsonObject(body)) throw wrongShape(body, what, what)
  const { path, message } = firstIssue(r.error, '')
  throw invalid(`The service sent ${what} we cannot read: ${path}: ${message}.`, {
    reason: 'invalid_record',
    record: what,
    path
  })
}

export function parseProject(body: unknown): Project {
  return guard('a project', () => parseOne(body, projectSchema, 'a project'))
}

/** A list of projects (GET /projects?software_product_id=…, outside the interface document). */
export function parseProjects(body: unknown, report: ReportInvalidRecord = ignore): Project[] {
  return guard('projects', () =>
    parseList(expectList(body, 'projects'), projectSchema, null, { resource: 'project', base: '', report })
  )
}

/** One task with its steps (POST /tasks answers it, outside the interface document). */
export function parseTask(body: unknown): Task {
  return guard('a task', () => {
    const head = parseOne(body, taskHeadSchema, 'a task')
    return { ...head.task, steps: parseList(head.rawSteps, stepSchema, fastStep, null) }
  })
}

export function parseSteps(body: unknown, report: ReportInvalidRecord = ignore): TaskStep[] {
  return guard('steps', () =>
    parseList(expectList(body, 'steps'), stepSchema, fastStep, { resource: 'step', base: '', report })
  )
}

/** Every task's own fields first (its steps are read after): issues are reported in that order. */
function taskHeads(
  items: unknown[],
  report: ReportInvalidRecord
): { task: TaskHead; rawSteps: unknown[]; index: number }[] {
  const heads: { task: TaskHead; rawSteps: unknown[]; index: number }[] = []
  for (let index = 0; index < items.length; index++) {
    const head = parseRecord(items[index], index, taskHeadSchema, fastTask, { resource: 'task', base: '', report })
    if (head) heads.push({ task: head.task, rawSteps: head.rawSteps, index })
  }
  return heads
}

export function parseTasks(body: unknown, report: ReportInvalidRecord = ignore): Task[] {
  return guard('tasks', () => {
    const heads = taskHeads(expectList(body, 'tasks'), report)
    const tasks: Task[] = []
    for (const { task, rawSteps, index } of heads) {
      const steps = parseList(rawSteps, stepSchema, fastStep, { resource: 'step', base: `[${index}].steps`, report })
      tasks.push({ ...task, steps })
    }
    return tasks
  })
}

/** What parseTasks reads, with the same reports, but an ended task's steps only checked; stepsOf later gives the steps
 * parseTasks would have. */
export function parseTaskDigests(body: unknown, report: ReportInvalidRecord = ignore): TaskDigest[] {
  return guard('tasks', () => {
    const heads = taskHeads(expectList(body, 'tasks'), report)
    const tasks: TaskDigest[] = []
    for (const { task, rawSteps, index } of heads) {
      const reporting: Reporting = { resource: 'step', base: `[${index}].steps`, report }
      if (isActive(task.status)) {
        const steps = parseList(rawSteps, stepSchema, fastStep, reporting)
        const fold = new StepsFold()
        for (const s of steps) fold.add(s.id, s.status, s.updated_at)
        tasks.push(digestOf(task, steps, null, fold))
        continue
      }
      const fold = new StepsFold()
      let valid = true
      for (let i = 0; i < rawSteps.length; i++) {
        const raw = rawSteps[i]
        if (fastPath && isFastStep(raw)) {
          fold.add(raw.id as string, raw.status as string, typeof raw.updated_at === 'string' ? raw.updated_at : '')
          continue
        }
        const step = parseRecord(raw, i, stepSchema, null, reporting)
        if (step) fold.add(step.id, step.status, step.updated_at)
        valid = false
      }
      // Steps that needed the schema are parsed now, so stepsOf never reads an invalid one again.
      const steps = valid ? null : parseList(rawSteps, stepSchema, fastStep, null)
      tasks.push(digestOf(task, steps, steps ? null : rawSteps, fold))
    }
    return tasks
  })
}

/** A digest's steps: as parsed, or parsed now from the raw ones (all of which passed the fast check). */
export function stepsOf(task: TaskDigest): TaskStep[] {
  if (task.steps) return task.steps
  const steps = parseList(task.rawSteps ?? [], stepSchema, fastStep, null)
  task.steps = steps
  task.rawSteps = null
  return steps
}

export function parseStepsAndUsages(body: unknown, report: ReportInvalidRecord = ignore): StepsAndUsages {
  return guard('steps and usages', () => {
    const top = stepsAndUsagesSchema.safeParse(body)
    if (!top.success) {
      const { path, message } = firstIssue(top.error, '')
      throw invalid(
        isJsonObject(body)
          ? `The service sent steps and usages we cannot read: ${path}: ${message}.`
          : `The service sent ${describe(body)} where steps and usages were expected.`,
        { reason: 'wrong_shape', record: 'steps and usages', path }
      )
    }
    const steps = parseList(top.data.steps, stepSchema, fastStep, { resource: 'step', base: 'steps', report })
    const usages: UsageRecord[] = parseList(top.data.usages, usageSchema, null, {
      resource: 'usage',
      base: 'usages',
      report
    })
    return { steps, usages }
  })
}

export function parsePublishResult(body: unknown): PublishResult {
  return guard('a publish result', () => parseOne(body, publishSchema, 'a publish result'))
}
