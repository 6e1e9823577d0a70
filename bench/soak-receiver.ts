// The soak's forwarding receiver: a JSON webhook on loopback in the parent process that records
// every request (its Idempotency-Key and task) and answers 200, except once, when armed: then it
// does not answer and has the app killed while the forward is on its way.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ForwardReceived {
  key: string
  taskId: string | null
  event: string
  /** Answered 200 (delivered); false for the one cut by the kill. */
  answered: boolean
}

export interface SoakReceiver {
  url: string
  received: ForwardReceived[]
  /** The next request is not answered: `onCut` is called instead (the parent kills the app). */
  arm(onCut: () => void): void
  readonly cut: boolean
  close(): Promise<void>
}

export async function startSoakReceiver(): Promise<SoakReceiver> {
  let armed: (() => void) | null = null
  let cut = false
  const received: ForwardReceived[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let body: { event?: string; task?: { id?: string } | null } = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body
      } catch {
        // Counted with no task: the count says so.
      }
      const entry: ForwardReceived = {
        key: String(req.headers['idempotency-key'] ?? ''),
        taskId: body.task?.id ?? null,
        event: String(body.event ?? ''),
        answered: false
      }
      received.push(entry)
      if (armed) {
        const onCut = armed
        armed = null
        cut = true
        onCut()
        // The app is gone; the connection goes with it.
        res.on('close', () => undefined)
        return
      }
      entry.answered = true
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"ok":true}')
    })
  })
  server.keepAliveTimeout = 1
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/soak-hook`,
    received,
    arm: (onCut) => void (armed = onCut),
    get cut() {
      return cut
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

export interface ForwardCount {
  /** Task ends the service recorded that no delivered forward told. */
  missed: string[]
  /** Deliveries beyond one per task (the same key answered twice, or one task under two keys). */
  repeated: string[]
  /** Delivered forwards of tasks the service recorded no end of. */
  unexpected: string[]
  /** Forwards cut by the kill and delivered after the restart, under the same key. */
  resentAfterKill: number
  delivered: number
}

export function countForwards(ends: readonly { taskId: string }[], received: readonly ForwardReceived[]): ForwardCount {
  const delivered = received.filter((r) => r.answered)
  const keysByTask = new Map<string, string[]>()
  for (const r of delivered)
    if (r.taskId !== null) keysByTask.set(r.taskId, [...(keysByTask.get(r.taskId) ?? []), r.key])
  const repeated: string[] = []
  for (const [taskId, keys] of keysByTask) for (let i = 1; i < keys.length; i++) repeated.push(taskId)
  const cutKeys = new Set(received.filter((r) => !r.answered).map((r) => r.key))
  return {
    missed: ends.filter((e) => !keysByTask.has(e.taskId)).map((e) => e.taskId),
    unexpected: [...keysByTask.keys()].filter((taskId) => !ends.some((e) => e.taskId === taskId)),
    repeated,
    resentAfterKill: delivered.filter((r) => cutKeys.has(r.key)).length,
    delivered: delivered.length
  }
}
