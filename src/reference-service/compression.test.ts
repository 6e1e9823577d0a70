// The reference service compresses as real servers do when asked (br, else gzip), and its two
// switches give a server without compression or without ETags: in code and on the command line.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseCoding } from './compression'
import { type ReferenceService, startReferenceService } from './index'
import { call } from './test-client'

const KEY = 'compression-key-9d2f'
let service: ReferenceService
let projectId: string

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 4, manualClock: true })
  const p = service.control.createProject({ name: 'Squeezed' })
  projectId = p.id
  for (const name of ['One', 'Two', 'Three']) service.control.addTask(p.id, { name, status: 'completed' })
})
afterAll(async () => {
  await service.close()
})

describe('chooseCoding', () => {
  it('prefers br, then gzip; honours q=0 and *; offers nothing else', () => {
    expect(chooseCoding('gzip, br')).toBe('br')
    expect(chooseCoding('gzip')).toBe('gzip')
    expect(chooseCoding('br;q=0, gzip')).toBe('gzip')
    expect(chooseCoding('gzip;q=0, br;q=0')).toBeUndefined()
    expect(chooseCoding('*')).toBe('br')
    expect(chooseCoding('*, br;q=0')).toBe('gzip')
    expect(chooseCoding('deflate, zstd')).toBeUndefined()
    expect(chooseCoding(undefined)).toBeUndefined()
    expect(chooseCoding('identity')).toBeUndefined()
  })
})

describe('a compressed answer', () => {
  it('is br or gzip as asked, decodes to the same list, and is smaller on the wire', async () => {
    const plain = await call(service.url, 'GET', `/projects/${projectId}/tasks`, { key: KEY })
    expect(plain.headers['content-encoding']).toBeUndefined()
    for (const [asked, coding, decode] of [
      ['gzip, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync]
    ] as const) {
      const res = await request(`${service.url}/projects/${projectId}/tasks`, {
        headers: { 'x-api-key': KEY, 'accept-encoding': asked }
      })
      const body = Buffer.from(await res.body.arrayBuffer())
      expect(res.headers['content-encoding'], asked).toBe(coding)
      expect(res.headers.vary).toBe('accept-encoding')
      expect(Number(res.headers['content-length'])).toBe(body.length)
      expect(decode(body).toString('utf8')).toBe(plain.text)
      expect(body.length * 3, asked).toBeLessThan(Buffer.byteLength(plain.text))
    }
  })

  it('is counted on the wire as sent: compressed bytes under wireBytes, the body as made under responseBytes', async () => {
    service.control.resetStats()
    const res = await request(`${service.url}/projects/${projectId}/tasks`, {
      headers: { 'x-api-key': KEY, 'accept-encoding': 'gzip' }
    })
    const body = Buffer.from(await res.body.arrayBuffer())
    const route = service.control.stats().byRoute['GET /projects/{id}/tasks']
    expect(route?.requests).toBe(1)
    expect(route?.responseBytes).toBe(zlib.gunzipSync(body).length)
    // The body as sent plus a status line and headers, well under 1 KB.
    expect(route?.wireBytes).toBeGreaterThan(body.length)
    expect(route?.wireBytes).toBeLessThan(body.length + 1024)
  })

  it('a small body goes as it is', async () => {
    const small = await request(`${service.url}/nowhere`, { headers: { 'x-api-key': KEY, 'accept-encoding': 'gzip' } })
    const text = await small.body.text()
    expect(Buffer.byteLength(text)).toBeLessThan(256)
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'not_found' } })
    expect(small.headers['content-encoding']).toBeUndefined()
  })
})

describe('the switches', () => {
  it('compression: false and etags: false give a server with neither', async () => {
    const bare = await startReferenceService({
      apiKey: KEY,
      port: 0,
      seed: 4,
      manualClock: true,
      compression: false,
      etags: false
    })
    try {
      const p = bare.control.createProject({ name: 'Bare' })
      for (const name of ['One', 'Two', 'Three']) bare.control.addTask(p.id, { name, status: 'completed' })
      const res = await request(`${bare.url}/projects/${p.id}/tasks`, {
        headers: { 'x-api-key': KEY, 'accept-encoding': 'gzip, br' }
      })
      JSON.parse(await res.body.text())
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers.etag).toBeUndefined()
    } finally {
      await bare.close()
    }
  })

  it('--no-etags and --no-compression on the command line', async () => {
    const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts')
    const answers: Record<string, { encoding?: string; etag?: string }> = {}
    for (const flags of [[], ['--no-etags', '--no-compression']]) {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--demo', ...flags], {
        env: { ...process.env, AGENT_TRAY_SERVICE_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'inherit']
      })
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = ''
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8')
            const m = /listening on (\S+)/.exec(out)
            if (m) resolve(m[1] as string)
          })
          child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
        })
        const ids = (await (await fetch(`${url}/__control/projects`, { headers: { 'x-api-key': KEY } })).json()) as {
          id: string
        }[]
        const res = await request(`${url}/projects/${ids[0]!.id}/tasks`, {
          headers: { 'x-api-key': KEY, 'accept-encoding': 'gzip' }
        })
        await res.body.arrayBuffer()
        answers[flags.join(' ') || 'default'] = {
          encoding: typeof res.headers['content-encoding'] === 'string' ? res.headers['content-encoding'] : undefined,
          etag: typeof res.headers.etag === 'string' ? 'yes' : undefined
        }
      } finally {
        child.kill('SIGTERM')
        await exited
      }
    }
    expect(answers).toEqual({ default: { encoding: 'gzip', etag: 'yes' }, '--no-etags --no-compression': {} })
  }, 30_000)
})
