// The child's side of worker-process.ts: runs the job on the one input it is sent, answers, and
// exits. A file of its own, so that a bundled worker holds this (not fork, nor the bundler)
// beside the code it measures.

export function serveWorker<I, O>(job: (input: I) => Promise<O>): void {
  process.once('message', (input) => {
    job(input as I).then(
      (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.(
          { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
          () => process.exit(1)
        )
    )
  })
}
