// The reference service's public types: the exact wire shapes of docs/service-interface.md §2 (as this
// service sends them) and the programmatic control surface tests and the demo code against.
import type { FileRequirement, ProjectCreate, StepStatus, StepType, TaskStatus } from '../shared/service'

export interface WireProject {
  id: string
  software_product_id: string
  name: string
  description: string
  project_type: 'web'
  project_template_type: string
  created_at: string
  updated_at: string
  user_email: string
  prebuilt_url: string
  return_url: string
  ref_id: string
}

export interface WireStep {
  id: string
  task_id: string
  name: string
  description: string
  status: StepStatus
  type: StepType | null
  metadata: Record<string, unknown>
  created_at: string
  updated_at: string
}

export interface WireTask {
  id: string
  project_id: string
  name: string
  description: string
  status: TaskStatus
  text_requirement: string
  files_requirement: FileRequirement[]
  created_at: string
  updated_at: string
  steps: WireStep[]
  branch: string
  total_price: number
}

export interface WireUsage {
  id: string
  task_id: string
  usage_type: string
  provider: string
  model: string
  remark: string
  request_data: Record<string, unknown>
  response_data: Record<string, unknown>
  usage_metadata: {
    input_tokens: number
    total_tokens: number
    output_tokens: number
    cache_read_tokens: number
    input_token_details: { cache_read: number }
    output_token_details: Record<string, number>
  }
  price: { input_price: number; output_price: number; cache_read_price: number; total_price: number }
  final_price: number
  created_at: string
  updated_at: string
}

export interface WireStepsAndUsages {
  steps: WireStep[]
  usages: WireUsage[]
}

export interface WirePublishResult {
  status: 'success' | 'failed'
  message: string[]
}

/** The one error body of every non-2xx answer: `{"error": {"code": ErrorCode, "message", "field" (400 only)}}`. */
export type ErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'bad_request'
  | 'payload_too_large'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'internal'
  | 'misdirected'

export interface WireError {
  error: { code: ErrorCode; message: string; field?: string }
}

/** One injected fault, never on `/__control/`; `times` and `probability` (seeded) limit it. Latency rules add up and
 *  hold rules hold; of the others, the first match decides the answer. */
export type FaultRule = FaultScope &
  (
    | { kind: 'latency'; ms: number }
    /** Held until control.release(): a slow answer whose end the test decides. Then answered as the other rules say. */
    | { kind: 'hold' }
    /** A 5xx (default 503) with the usual error body. */
    | { kind: 'error'; status?: number }
    /** 429 with Retry-After: a number of seconds, or `{ date: true }` for an HTTP-date that many seconds ahead. */
    | { kind: 'rate_limit'; retryAfterSeconds?: number; httpDate?: boolean }
    /** 200 with a body that is not JSON. */
    | { kind: 'malformed' }
    /** 200, Content-Length larger than what is sent, then the connection ends. */
    | { kind: 'truncated' }
    /** The socket is destroyed before any response. */
    | { kind: 'drop' }
    /** The real answer, trickled `chunkBytes` at a time every `intervalMs`. */
    | { kind: 'slow'; chunkBytes?: number; intervalMs?: number }
    /** 200 with one record of a list (a bare array, or the `steps` of an object) given `id: null`: record `index`, default 0; every record with `all`. */
    | { kind: 'corrupt_record'; index?: number; all?: boolean }
  )

export interface FaultScope {
  method?: string
  pathPrefix?: string
  times?: number
  probability?: number
}

export interface FaultPlan {
  rules: FaultRule[]
}

export type TaskScript = 'complete' | 'fail' | 'cancel' | 'run-forever'

export interface AddTaskInput {
  name?: string
  /** The state the task is in now: earlier states are placed in the simulated past. */
  status?: TaskStatus
  script?: TaskScript
  text_requirement?: string
  files_requirement?: FileRequirement[]
}

/** POST /tasks (outside the interface document, as the real service documents it). */
export interface TaskCreate {
  project_id: string
  name: string
  text_requirement: string
  /** "new_task" in the real service's example; kept as given. */
  flow?: string
}

export interface BulkCreateInput {
  projects: number
  tasksPerProject: number
  stepsPerTask: number
  /** How many of the projects have a task running now (the rest are idle). Default 0. */
  activeProjects?: number
}

export interface RouteStats {
  requests: number
  /** Body bytes as the service made them, before any compression. */
  responseBytes: number
  /** Bytes the answers took on the socket: status line, headers and the body as sent (compressed or not). */
  wireBytes: number
}

export interface ServiceStats extends RouteStats {
  byRoute: Record<string, RouteStats>
}

/** The control every fake shares, whatever service it stands in for: time, faults, stats. */
export interface CommonControl {
  /** Simulated time, ISO. */
  now(): string
  /** Runs the simulation forward (works with either clock). */
  advance(ms: number): void
  /** Replaces the fault plan. */
  setFaults(faults: FaultPlan): void
  clearFaults(): void
  /** How many requests a 'hold' rule keeps waiting now. */
  held(): number
  /** Lets every held request go on (the rules stay); returns how many were held. */
  release(): number
  stats(): ServiceStats
  resetStats(): void
}

export interface ServiceControl extends CommonControl {
  createProject(input?: Partial<ProjectCreate> & { firstTask?: boolean }): WireProject
  addTask(projectId: string, input?: AddTaskInput): WireTask
  setTaskStatus(taskId: string, status: TaskStatus): WireTask
  /** Skews a task's total_price away from the sum of its usage records (USD, 0 to 1,000,000). */
  setTaskTotalPrice(taskId: string, usd: number): WireTask
  getTask(taskId: string): WireTask | undefined
  listProjects(): WireProject[]
  /** Three projects: one running now, one idle with history, one that will fail soon. */
  seedDemo(): { projectIds: string[] }
  bulkCreate(input: BulkCreateInput): { projectIds: string[] }
}

export interface ReferenceServiceOptions {
  apiKey: string
  /** Default 0: any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Default 1. */
  seed?: number
  /** Simulated ms per real ms; default 1. Ignored when the clock is manual. */
  speed?: number
  /** Default apps.agent-tray.test. */
  publishingDomain?: string
  /** Simulated time moves only with control.advance(ms). */
  manualClock?: boolean
  /** ISO start of simulated time; default 2026-01-05T09:00:00.000Z when manualClock, else now. */
  startTime?: string
  /** Default true: GET answers carry a weak ETag and If-None-Match gets 304. False: a server without them. */
  etags?: boolean
  /** Default true: answers are compressed (br, else gzip) when the request's Accept-Encoding allows. False: never. */
  compression?: boolean
  /** The real service's endpoints outside the interface document (GET /projects, POST /tasks); false: 405 and 404. */
  extensions?: boolean
}

export interface ReferenceService {
  /** e.g. http://127.0.0.1:40123, no trailing slash. */
  url: string
  publishingDomain: string
  control: ServiceControl
  close(): Promise<void>
}

export const DEFAULT_PUBLISHING_DOMAIN = 'apps.agent-tray.test'
export const MANUAL_START_TIME = '2026-01-05T09:00:00.000Z'

/** A task as the reference service keeps it: its plan is derived from this, never stored on the wire. */
export interface TaskRecord {
  id: string
  projectId: string
  name: string
  description: string
  text_requirement: string
  files_requirement: FileRequirement[]
  branch: string
  createdAt: number
  script: TaskScript
  stepCount?: number
  durationScale: number
  /** Bulk tasks rebuild their plan on request instead of keeping it. */
  cachePlan: boolean
  override?: { status: TaskStatus; at: number }
  /** A total_price that disagrees with the usage records (control only, for the mismatch flag). */
  totalPriceOverride?: number
}
