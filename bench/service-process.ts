// The reference service in a child process (`src/reference-service/cli.ts` under tsx), driven through its
// /__control/ routes. Keeping the service out of the measured process means its CPU time and
// memory are not charged to the monitor, and it gets the other core.
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddTaskInput, BulkCreateInput, ServiceStats, WireTask } from '../src/reference-service/index'
import type { TaskStatus } from '../src/shared/service'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface RemoteControl {
  now(): Promise<string>
  advance(ms: number): Promise<void>
  addTask(projectId: string, input?: AddTaskInput): Promise<WireTask>
  setTaskStatus(taskId: string, status: TaskStatus): Promise<WireTask>
  bulkCreate(input: BulkCreateInput): Promise<{ projectIds: string[] }>
  stats(): Promise<ServiceStats>
  resetStats(): Promise<void>
}

export interface ServiceProcess {
  url: string
  pid: number
  control: RemoteControl
  close(): Promise<void>
}

export interface ServiceProcessOptions {
  apiKey: string
  seed: number
  manualClock?: boolean
  /** Default true each: a service with ETags, and one that compresses when asked. */
  etags?: boolean
  compression?: boolean
  /** Heap limit of the child, MB (a 100,000-task fixture needs more than the default). */
  maxOldSpaceMb?: number
}

export function controlClient(url: string, apiKey: string): RemoteControl {
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/__control/${route}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`Control ${method} ${route} failed with ${res.status}: ${text.slice(0, 300)}`)
    return JSON.parse(text) as T
  }
  return {
    now: async () => (await call<{ now: string }>('GET', 'now')).now,
    advance: async (ms) => {
      if (ms > 0) await call('POST', 'advance', { ms })
    },
    addTask: (projectId, input = {}) => call('POST', 'tasks', { project_id: projectId, ...input }),
    setTaskStatus: (taskId, status) => call('POST', `tasks/${encodeURIComponent(taskId)}/status`, { status }),
    bulkCreate: (input) => call('POST', 'bulk', input),
    stats: () => call('GET', 'stats'),
    resetStats: async () => {
      await call('POST', 'stats/reset')
    }
  }
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8')
      const m = /listening on (\S+)/.exec(out)
      if (m) {
        child.stdout?.off('data', onData)
        resolve(m[1] as string)
      }
    }
    child.stdout?.on('data', onData)
    child.once('exit', (code) =>
      reject(new Error(`The reference service exited (code ${code}) before listening: ${out.slice(0, 300)}`))
    )
    child.once('error', reject)
  })
}

export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const args = [
    ...(options.maxOldSpaceMb ? [`--max-old-space-size=${options.maxOldSpaceMb}`] : []),
    '--import',
    'tsx',
    path.join(REPO_ROOT, 'src/reference-service/cli.ts'),
    '--port',
    '0',
    '--seed',
    String(options.seed),
    ...(options.manualClock ? ['--manual-clock'] : []),
    ...(options.etags === false ? ['--no-etags'] : []),
    ...(options.compression === false ? ['--no-compression'] : [])
  ]
  // The key travels in the environment, never in the arguments (visible to other users).
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_TRAY_SERVICE_API_KEY: options.apiKey },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const url = await waitForUrl(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url,
    pid: child.pid as number,
    control: controlClient(url, options.apiKey),
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    }
  }
}
