// The client asks for compressed answers and reads them: against a raw node:http server that
// compresses (or lies about it, or sends a bomb) in exactly one way each, against the reference
// service (the command's exit 6 for a bomb: src/cli/compressed-bomb.test.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { startReferenceService } from '../../reference-service'
import { createServiceClient, DEFAULT_MAX_RESPONSE_BYTES, type ServiceClient } from './client'
import { ACCEPT_ENCODING } from './http'
import { failure } from './test-failure'

const KEY = 'key-compress-71c2a9'
const TASKS = JSON.stringify(
  Array.from({ length: 40 }, (_, i) => ({
    id: `t${i}`,
    project_id: 'p1',
    name: `Task ${i}`,
    status: 'completed',
    steps: [],
    total_price: 0.5
  }))
)
const hasZstd = typeof (zlib as unknown as { zstdCompressSync?: unknown }).zstdCompressSync === 'function'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.()
})

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void
): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = []
  const server = createServer((req, res) => {
    requests.push(req)
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

function client(url: string, onBytes?: (bytes: number) => void): ServiceClient {
  const c = createServiceClient({
    baseUrl: url,
    apiKey: KEY,
    retry: { retries: 0 },
    ...(onBytes ? { onResponse: ({ bytes }) => onBytes(bytes) } : {})
  })
  cleanups.push(() => c.close())
  return c
}

const encoded = (res: ServerResponse, coding: string, body: Buffer) => {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-encoding': coding,
    'content-length': String(body.length)
  })
  res.end(body)
}

/** A gzip body that inflates to `mb` MiB of spaces: `mb` gzip members of 1 MiB each, written one by one (never held whole). */
function gzipBomb(res: ServerResponse, mb: number): { written: () => number } {
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 })
  let count = 0
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
  const pump = () => {
    while (!res.destroyed && count < mb) {
      count += 1
      if (!res.write(member)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end()
  }
  pump()
  return { written: () => count }
}

describe('asking for compression', () => {
  it(`every request offers ${ACCEPT_ENCODING} (zstd only where this Node reads it)`, async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(TASKS)
    })
    const c = client(s.url)
    await c.listTasks('p1')
    await c.getProject('p1').catch(() => undefined)
    expect(ACCEPT_ENCODING).toBe(hasZstd ? 'gzip, br, zstd' : 'gzip, br')
    for (const req of s.requests) expect(req.headers['accept-encoding']).toBe(ACCEPT_ENCODING)
  })

  it('reads gzip, br (and zstd where offered) from a raw node:http server, counting the compressed bytes', async () => {
    const codings: [string, (b: Buffer) => Buffer][] = [
      ['gzip', (b) => zlib.gzipSync(b)],
      ['x-gzip', (b) => zlib.gzipSync(b)],
      ['br', (b) => zlib.brotliCompressSync(b)],
      ...(hasZstd
        ? ([
            [
              'zstd',
              (b: Buffer) => (zlib as unknown as { zstdCompressSync: (b: Buffer) => Buffer }).zstdCompressSync(b)
            ]
          ] as [string, (b: Buffer) => Buffer][])
        : [])
    ]
    for (const [coding, squeeze] of codings) {
      const body = squeeze(Buffer.from(TASKS))
      const s = await serve((_req, res) => encoded(res, coding, body))
      const counted: number[] = []
      const tasks = await client(s.url, (b) => counted.push(b)).listTasks('p1')
      expect(
        tasks.map((t) => t.id),
        coding
      ).toEqual((JSON.parse(TASKS) as { id: string }[]).map((t) => t.id))
      expect(counted, coding).toEqual([body.length])
      expect(body.length).toBeLessThan(Buffer.byteLength(TASKS) / 3)
    }
  })

  it("reads a compressed error body, so the server's words are shown", async () => {
    const s = await serve((_req, res) => {
      const body = zlib.gzipSync(JSON.stringify({ message: 'Project is archived' }))
      res.writeHead(409, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(body.length)
      })
      res.end(body)
    })
    const e = await failure(client(s.url).getProject('p1'))
    expect(e.message).toContain('Project is archived')
  })
})

describe('a bomb', () => {
  it('a 400 MiB gzip bomb ends as a clean invalid response at the 8 MiB cap, with memory bounded', async () => {
    let bomb: { written: () => number } | undefined
    const s = await serve((_req, res) => {
      bomb = gzipBomb(res, 400)
    })
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5)
    const e = await failure(client(s.url).listTasks('p1')).finally(() => clearInterval(sampler))
    peak = Math.max(peak, process.memoryUsage().arrayBuffers)
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.reason).toBe('too_large')
    expect(e.message).toContain(`${DEFAULT_MAX_RESPONSE_BYTES / 1024} KiB`)
    expect(bomb?.written()).toBe(400)
    // Inflated whole it would be 400 MiB; cut at the cap it costs the cap and the small input.
    expect(peak - before).toBeLessThan(64 * 1024 * 1024)
  })

  it('an answer over the cap once decompressed is refused even when small on the wire', async () => {
    const big = Buffer.from(`[${'"x",'.repeat(300_000)}"end"]`)
    const s = await serve((_req, res) => encoded(res, 'br', zlib.brotliCompressSync(big)))
    const c = createServiceClient({ baseUrl: s.url, apiKey: KEY, retry: { retries: 0 }, maxResponseBytes: 1024 * 1024 })
    cleanups.push(() => c.close())
    const e = await failure(c.listSteps('t1'))
    expect(e.details?.reason).toBe('too_large')
  })
})

describe('a body that lies about its encoding', () => {
  const lies: [string, (res: ServerResponse) => void][] = [
    ['says gzip, is plain JSON', (res) => encoded(res, 'gzip', Buffer.from(TASKS))],
    ['says br, is gzip', (res) => encoded(res, 'br', zlib.gzipSync(TASKS))],
    ['says gzip, is cut short', (res) => encoded(res, 'gzip', zlib.gzipSync(TASKS).subarray(0, 60))],
    ['says a coding never asked for', (res) => encoded(res, 'compress', zlib.deflateSync(TASKS))],
    ['says two codings', (res) => encoded(res, 'gzip, gzip', zlib.gzipSync(zlib.gzipSync(TASKS)))]
  ]
  for (const [what, answer] of lies) {
    it(`${what}: a clean invalid response`, async () => {
      const s = await serve((_req, res) => answer(res))
      const e = await failure(client(s.url).listTasks('p1'))
      expect(e.kind).toBe('invalid_response')
      expect(e.details?.reason).toBe('bad_encoding')
      expect(e.message).toMatch(/could not be read as/)
    })
  }

  it('says nothing, is gzip: not JSON, a clean invalid response', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(zlib.gzipSync(TASKS))
    })
    const e = await failure(client(s.url).listTasks('p1'))
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.reason).toBe('not_json')
  })
})

describe('against the reference service', () => {
  it('gets br lists, a 304 when unchanged, and the same tasks as a service without compression', async () => {
    const read = async (compression: boolean) => {
      const service = await startReferenceService({ apiKey: KEY, port: 0, seed: 9, manualClock: true, compression })
      cleanups.push(() => service.close())
      const p = service.control.createProject({ name: 'Wire' })
      for (const name of ['A', 'B', 'C', 'D']) service.control.addTask(p.id, { name, status: 'completed' })
      const counted: number[] = []
      const c = client(service.url, (b) => counted.push(b))
      const first = await c.listTasksIfChanged(p.id, null)
      if (!first.changed) throw new Error('the first list cannot be unchanged')
      const again = await c.listTasksIfChanged(p.id, first.etag)
      return { tasks: first.tasks, again, bytes: counted[0] as number, made: service.control.stats().responseBytes }
    }
    const squeezed = await read(true)
    const plain = await read(false)
    expect(squeezed.tasks).toEqual(plain.tasks)
    expect(squeezed.again).toEqual({ changed: false })
    expect(plain.bytes).toBe(plain.made)
    expect(squeezed.bytes * 3).toBeLessThan(plain.bytes)
  })
})
