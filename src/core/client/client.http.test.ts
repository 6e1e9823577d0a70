// The client against tiny real HTTP servers that misbehave in exactly one way each: the
// low-level faults (cut bodies, dropped sockets, trickling, huge answers, Retry-After).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sleep } from '../sleep'
import { createServiceClient, type ServiceClient, type ServiceClientOptions, USER_AGENT } from './client'
import { openPoolCount } from './pool'
import { ServiceError } from './service-error'
import { failure } from './test-failure'

const KEY = 'key-3f9a1c77e0d24b5e'
const PROJECT = JSON.stringify({ id: 'p1', name: 'Shop' })

interface TestServer {
  url: string
  requests: IncomingMessage[]
  sockets: number
  close(): Promise<void>
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.()
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<TestServer> {
  const requests: IncomingMessage[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req)
    handler(req, res, requests.length)
  })
  const s: TestServer = {
    url: '',
    requests,
    sockets: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  server.on('connection', () => (s.sockets += 1))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  cleanups.push(s.close)
  return s
}

function client(url: string, extra: Partial<ServiceClientOptions> = {}): ServiceClient & { waits: number[] } {
  const waits: number[] = []
  const c = createServiceClient({
    baseUrl: url,
    apiKey: KEY,
    random: () => 0.5,
    retry: { baseDelayMs: 100 },
    sleep: async (ms) => {
      waits.push(ms)
    },
    ...extra
  })
  cleanups.push(() => c.close())
  return Object.assign(c, { waits })
}

const ok = (res: ServerResponse, body = PROJECT) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(body)
}

describe('requests', () => {
  it('sends the key, accept, user agent, and a content type only with a body', async () => {
    const s = await serve((_req, res) => ok(res))
    const c = client(s.url)
    await c.getProject('p1')
    await c.updateProject('p1', { name: 'New', ...({ id: 'sneaky' } as object) })
    const [get, patch] = s.requests
    expect(get?.headers['x-api-key']).toBe(KEY)
    expect(get?.headers.accept).toBe('application/json')
    expect(get?.headers['user-agent']).toBe(USER_AGENT)
    expect(USER_AGENT).toMatch(/^agent-tray\/\d+\.\d+\.\d+/)
    expect(get?.headers['content-type']).toBeUndefined()
    expect(patch?.method).toBe('PATCH')
    expect(patch?.headers['content-type']).toBe('application/json')
  })

  it('sends only the five updatable fields in a PATCH', async () => {
    const bodies: string[] = []
    const s = await serve((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        bodies.push(body)
        ok(res)
      })
    })
    await client(s.url).updateProject('p1', { name: 'New', ref_id: 'r', ...({ id: 'sneaky' } as object) })
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ name: 'New', ref_id: 'r' })
  })

  it('encodes path segments so an id cannot escape, and refuses "." and ".."', async () => {
    const s = await serve((_req, res) => ok(res, '[]'))
    const c = client(s.url)
    await c.listTasks('../x')
    await c.listSteps('a/b?c#d')
    expect(s.requests.map((r) => r.url)).toEqual(['/projects/..%2Fx/tasks', '/tasks/a%2Fb%3Fc%23d/steps'])
    expect((await failure(c.getProject('..'))).kind).toBe('bad_request')
    expect((await failure(c.listSteps(''))).kind).toBe('bad_request')
    expect(s.requests).toHaveLength(2)
  })

  it('keeps a path prefix of the base URL', async () => {
    const s = await serve((_req, res) => ok(res))
    await client(`${s.url}/api/v1/`).getProject('p1')
    expect(s.requests[0]?.url).toBe('/api/v1/projects/p1')
  })

  it('rejects a base URL that is not http(s), carries credentials, or is not a URL', () => {
    for (const baseUrl of ['ftp://host', 'not a url', 'http://user:pw@host', 'http://host/?q=1', 'file:///etc']) {
      expect(() => createServiceClient({ baseUrl, apiKey: KEY })).toThrow(ServiceError)
    }
    expect(() => createServiceClient({ baseUrl: 'ftp://host', apiKey: KEY })).toThrow(/must start with https:\/\//)
  })

  it('is never made for plain http to another machine: the key would travel in clear text', () => {
    for (const baseUrl of ['http://agents.example.com', 'http://10.0.0.2:4010', 'http://[fe80::1]/api']) {
      expect(() => createServiceClient({ baseUrl, apiKey: KEY }), baseUrl).toThrow(/must use https/)
    }
    for (const baseUrl of [
      'https://agents.example.com',
      'http://localhost:4010',
      'http://127.0.0.1',
      'http://[::1]:9/api'
    ]) {
      expect(() => createServiceClient({ baseUrl, apiKey: KEY }).close(), baseUrl).not.toThrow()
    }
  })

  it('refuses to send an empty key or one that cannot travel in a header, and checkKey says false', async () => {
    const s = await serve((_req, res) => ok(res))
    for (const apiKey of ['', '  ', 'abc\r\ndef', 'clé-secrète']) {
      const c = createServiceClient({ baseUrl: s.url, apiKey })
      cleanups.push(() => c.close())
      const e = await failure(c.getProject('p1'))
      expect(e.kind).toBe('auth')
      if (apiKey.trim()) expect(e.message).not.toContain(apiKey.trim())
      expect(await c.checkKey()).toBe(false)
    }
    expect(s.requests).toHaveLength(0)
  })

  it('reports each answer to onResponse, retries included', async () => {
    const s = await serve((_req, res, n) => (n === 1 ? (res.writeHead(500), res.end('boom')) : ok(res)))
    const seen: { method: string; path: string; status: number; bytes: number }[] = []
    await client(s.url, {
      onResponse: ({ method, path, status, bytes }) => seen.push({ method, path, status, bytes })
    }).getProject('p1')
    expect(seen).toEqual([
      { method: 'GET', path: '/projects/p1', status: 500, bytes: 4 },
      { method: 'GET', path: '/projects/p1', status: 200, bytes: PROJECT.length }
    ])
  })
})

describe('connection pool', () => {
  it('shares one keep-alive pool between clients of the same service and closes it with the last', async () => {
    const s = await serve((_req, res) => ok(res))
    const before = openPoolCount()
    const a = createServiceClient({ baseUrl: s.url, apiKey: KEY })
    const b = createServiceClient({ baseUrl: `${s.url}/`, apiKey: 'another-key-123' })
    expect(openPoolCount()).toBe(before + 1)
    // Spaced like polls: undici frees a connection for reuse a tick after its answer ends.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5))
    await a.getProject('p1')
    await tick()
    await b.getProject('p1')
    await tick()
    await a.getProject('p1')
    expect(s.sockets).toBe(1)
    await a.close()
    expect(openPoolCount()).toBe(before + 1)
    await b.close()
    expect(openPoolCount()).toBe(before)
    expect((await failure(a.getProject('p1'))).message).toContain('closed')
  })
})

describe('retries', () => {
  it('retries a GET after 5xx with jittered exponential backoff, then succeeds', async () => {
    const s = await serve((_req, res, n) => (n <= 3 ? (res.writeHead(502), res.end()) : ok(res)))
    const c = client(s.url)
    expect((await c.getProject('p1')).id).toBe('p1')
    expect(c.waits).toEqual([50, 100, 200])
  })

  it('gives up after the configured number of retries with the last error', async () => {
    const s = await serve((_req, res) => (res.writeHead(500), res.end('{"error":{"message":"db down"}}')))
    const c = client(s.url, { retry: { retries: 2, baseDelayMs: 100 } })
    const e = await failure(c.getProject('p1'))
    expect(e.kind).toBe('server')
    expect(e.message).toContain('db down')
    expect(s.requests).toHaveLength(3)
    expect(c.waits).toHaveLength(2)
  })

  it('honours Retry-After in seconds', async () => {
    const s = await serve((_req, res, n) =>
      n === 1 ? (res.writeHead(429, { 'retry-after': '2' }), res.end()) : ok(res)
    )
    const c = client(s.url)
    await c.getProject('p1')
    expect(c.waits).toEqual([2000])
  })

  it('honours Retry-After as an HTTP date, against the injected clock', async () => {
    const now = Date.parse('2030-06-01T12:00:00.000Z')
    const s = await serve((_req, res, n) =>
      n === 1 ? (res.writeHead(503, { 'retry-after': new Date(now + 5000).toUTCString() }), res.end()) : ok(res)
    )
    const c = client(s.url, { now: () => now })
    await c.getProject('p1')
    expect(c.waits).toEqual([5000])
  })

  it('does not wait longer than the maximum: gives up with the wait for the caller', async () => {
    const s = await serve((_req, res) => (res.writeHead(429, { 'retry-after': '3600' }), res.end()))
    const c = client(s.url, { retry: { maxDelayMs: 10_000 } })
    const e = await failure(c.getProject('p1'))
    expect(e.kind).toBe('rate_limited')
    expect(e.retryAfterMs).toBe(3_600_000)
    expect(e.toInfo().retryAfterMs).toBe(3_600_000)
    expect(c.waits).toEqual([])
    expect(s.requests).toHaveLength(1)
  })

  it('never retries a POST or PATCH', async () => {
    const s = await serve((req, res) => {
      req.resume()
      res.writeHead(503, { 'retry-after': '1' })
      res.end()
    })
    const c = client(s.url)
    expect((await failure(c.publish('p1', 'a.example.test'))).kind).toBe('rate_limited')
    expect((await failure(c.createProject({ name: 'x' }))).kind).toBe('rate_limited')
    expect((await failure(c.updateProject('p1', { name: 'x' }))).kind).toBe('rate_limited')
    expect(s.requests).toHaveLength(3)
    expect(c.waits).toEqual([])
  })

  it('does not retry 4xx or an unreadable 200', async () => {
    const s = await serve((req, res) =>
      req.url?.includes('bad') ? ok(res, '{"nope"') : (res.writeHead(400), res.end())
    )
    const c = client(s.url)
    expect((await failure(c.getProject('p1'))).kind).toBe('bad_request')
    expect((await failure(c.getProject('bad'))).kind).toBe('invalid_response')
    expect(s.requests).toHaveLength(2)
  })
})

describe('network faults', () => {
  it('a body cut short of its Content-Length: retried, then a network error', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(PROJECT.length) })
      res.write(PROJECT.slice(0, 5), () => res.socket?.destroy())
    })
    const c = client(s.url)
    const e = await failure(c.getProject('p1'))
    expect(e.kind).toBe('network')
    expect(s.requests).toHaveLength(4)
  })

  it('a connection dropped before any answer: retried, then a network error', async () => {
    const s = await serve((req) => req.socket.destroy())
    const c = client(s.url)
    const e = await failure(c.listTasks('p1'))
    expect(e.kind).toBe('network')
    expect(e.message).toMatch(/^Could not talk to the service/)
    expect(c.waits).toHaveLength(3)
  })

  it('a refused connection is a network error', async () => {
    const s = await serve(() => {})
    const url = s.url
    await s.close()
    const e = await failure(client(url, { retry: { retries: 1 } }).getProject('p1'))
    expect(e.kind).toBe('network')
    expect(e.message).toContain('ECONNREFUSED')
  })

  it('no headers within the headers timeout is a timeout', async () => {
    const s = await serve(() => {})
    const e = await failure(client(s.url, { timeouts: { headersMs: 150 }, retry: { retries: 0 } }).getProject('p1'))
    expect(e.kind).toBe('timeout')
  })

  it('a body that stalls is a timeout', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id":')
    })
    const e = await failure(client(s.url, { timeouts: { bodyMs: 150 }, retry: { retries: 0 } }).getProject('p1'))
    expect(e.kind).toBe('timeout')
  })

  it('a body that keeps trickling past the body timeout is a timeout', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20)
      res.on('close', () => clearInterval(timer))
    })
    // The trickle never lets an idle timer fire; only the whole-body bound ends this call.
    const e = await failure(client(s.url, { timeouts: { bodyMs: 200 }, retry: { retries: 0 } }).getProject('p1'))
    expect(e.kind).toBe('timeout')
    expect(e.message).toContain('longer than 200 ms')
  })

  it('a declared body over the cap is refused without reading it', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) })
      res.write('[')
    })
    const e = await failure(client(s.url, { maxResponseBytes: 1024 * 1024 }).listTasks('p1'))
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.reason).toBe('too_large')
    expect(s.requests).toHaveLength(1)
  })

  it('an endless body is cut at the cap', async () => {
    let written = 0
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(16 * 1024, 0x20)
      const pump = () => {
        while (!res.destroyed && written < 512 * 1024 * 1024) {
          written += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
      }
      pump()
    })
    const e = await failure(client(s.url, { maxResponseBytes: 64 * 1024 }).listSteps('t1'))
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.reason).toBe('too_large')
    expect(written).toBeLessThan(64 * 1024 * 1024)
  })
})

describe('abort', () => {
  it('rejects with the signal reason while waiting for an answer', async () => {
    const controller = new AbortController()
    // Aborted once the request has reached the server, which never answers.
    const s = await serve(() => controller.abort())
    const p = client(s.url).getProject('p1', controller.signal)
    await expect(p).rejects.toMatchObject({ name: 'AbortError' })
    expect(s.requests).toHaveLength(1)
  })

  it('does not start when already aborted, and stops a backoff sleep', async () => {
    const s = await serve((_req, res) => (res.writeHead(500), res.end()))
    const controller = new AbortController()
    controller.abort()
    await expect(client(s.url).getProject('p1', controller.signal)).rejects.toMatchObject({ name: 'AbortError' })
    expect(s.requests).toHaveLength(0)

    const c2 = new AbortController()
    let slept = 0
    // Aborted as the backoff sleep starts: the real sleep must end on the signal, not after 60 s.
    const sleepThenAbort = (ms: number, signal?: AbortSignal) => {
      slept++
      const sleeping = sleep(ms, signal)
      c2.abort()
      return sleeping
    }
    const real = createServiceClient({
      baseUrl: s.url,
      apiKey: KEY,
      retry: { baseDelayMs: 60_000 },
      random: () => 1,
      sleep: sleepThenAbort
    })
    cleanups.push(() => real.close())
    const p = real.getProject('p1', c2.signal)
    await expect(p).rejects.toMatchObject({ name: 'AbortError' })
    expect(slept).toBe(1)
    expect(s.requests).toHaveLength(1)
  })
})

describe('the API key never leaks', () => {
  it('appears in no message, stack or JSON of any error, even when the server echoes it', async () => {
    const s = await serve((req, res) => {
      const url = req.url ?? ''
      const echo = `bad key ${String(req.headers['x-api-key'])}`
      if (url.includes('auth'))
        return void (res.writeHead(401), res.end(JSON.stringify({ error: { message: echo, field: echo } })))
      if (url.includes('gone')) return void (res.writeHead(404), res.end(echo))
      if (url.includes('busy')) return void (res.writeHead(429, { 'retry-after': '1' }), res.end(echo))
      if (url.includes('fail')) return void (res.writeHead(500), res.end(echo))
      if (url.includes('garbage')) return void ok(res, `<html>${echo}</html>`)
      if (url.includes('shape')) return void ok(res, JSON.stringify(echo))
      if (url.includes('record')) return void ok(res, JSON.stringify({ [echo]: 1 }))
      if (url.includes('drop')) return void req.socket.destroy()
      res.writeHead(400)
      res.end(echo)
    })
    const c = client(s.url, { retry: { retries: 1 } })
    const errors: ServiceError[] = []
    for (const id of ['auth', 'gone', 'busy', 'fail', 'garbage', 'shape', 'record', 'drop', 'bad']) {
      errors.push(await failure(c.getProject(id)))
    }
    errors.push(await failure(c.publish('bad', 'x')))
    expect(new Set(errors.map((e) => e.kind))).toEqual(
      new Set(['auth', 'not_found', 'rate_limited', 'server', 'invalid_response', 'network', 'bad_request'])
    )
    for (const e of errors) {
      for (const text of [e.message, e.stack ?? '', JSON.stringify(e), JSON.stringify(e.toInfo()), String(e)]) {
        expect(text).not.toContain(KEY)
      }
    }
    expect(errors[0]?.message).toContain('[api key]')
  })
})
