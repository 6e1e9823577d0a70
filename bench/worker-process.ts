// One measure's client side in a child process of its own, so its CPU time and memory are
// measured alone (not with the reference service, the other measures or the bench's own state).
// The parent sends one input over IPC, the child (worker-serve.ts) answers with one result and
// exits. The child runs the entry bundled (bundle.ts), as the app runs its code, not under tsx.
import { fork } from 'node:child_process'
import { bundledWorker } from './bundle'
import { REPO_ROOT } from './service-process'

export interface WorkerOptions {
  /** Heap limit of the child, MB. */
  maxOldSpaceMb?: number
}

/** Forks the worker entry `file` (a `bench/*-worker.ts`) bundled, sends it `input`, resolves with its result. */
export function runWorker<I, O>(file: string, input: I, options: WorkerOptions = {}): Promise<O> {
  return new Promise<O>((resolve, reject) => {
    const child = fork(bundledWorker(file), [], {
      cwd: REPO_ROOT,
      execArgv: [
        ...(options.maxOldSpaceMb ? [`--max-old-space-size=${options.maxOldSpaceMb}`] : []),
        // BENCH_CPU_PROF=dir: a V8 CPU profile of the measured child, to read before changing code.
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc']
    })
    let answered = false
    child.once('message', (message) => {
      answered = true
      const m = message as { ok: true; result: O } | { ok: false; error: string }
      if (m.ok) resolve(m.result)
      else reject(new Error(m.error))
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (!answered) reject(new Error(`The worker ${file} exited (${signal ?? `code ${code}`}) without a result.`))
    })
    child.send(input as object)
  })
}
