// The key never leaves in an error, in any form a server may echo it (as sent, JSON-escaped,
// URL-encoded), nor in part where a message cuts the server's text short. Real HTTP.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { secretForms } from '../secrets/redact'
import { createServiceClient } from './client'
import { ServiceError } from './service-error'

/** Visible ASCII, as a key must be, with every character JSON or a URL escapes. */
const KEY = 'Zq9"Xv\\Lm/Rt<Wp>&Kd%Yh+Jc?Nf=Bs'
const goJson = (v: unknown): string =>
  JSON.stringify(v).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026')
const everyEscaped = (s: string): string =>
  s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** Each route answers with the key it was sent, echoed one way. */
const ECHO: Record<string, (key: string) => { status: number; body: string }> = {
  json: (key) => ({ status: 401, body: JSON.stringify({ error: { message: `bad key ${key}`, field: key } }) }),
  solidus: (key) => ({ status: 403, body: JSON.stringify({ message: `bad key ${key}` }).replaceAll('/', '\\/') }),
  go: (key) => ({ status: 404, body: goJson({ message: [`no project for ${key}`, 'try again'] }) }),
  url: (key) => ({ status: 400, body: `GET /projects?api_key=${encodeURIComponent(key)} refused` }),
  // Past the 200 characters a message keeps, once the JSON is read: only redacting first keeps all of it out.
  cut: (key) => ({ status: 500, body: `{"message":"${'x'.repeat(190)} ${everyEscaped(key)}"}` }),
  // A 2xx that is not JSON is quoted up to 80 characters, and the parser's own message quotes a bit of it.
  notjson: (key) => ({ status: 200, body: `${'y'.repeat(70)} ${key} tail` }),
  parsemsg: (key) => ({ status: 200, body: `{"id": ${key}}` })
}

let server: Server
let url: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const echo = ECHO[(req.url ?? '').split('/')[2] ?? '']
    const key = String(req.headers['x-api-key'])
    const { status, body } = echo ? echo(key) : { status: 500, body: '' }
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
})

/** Every 6-character piece of every form of the key (none of them occurs in our own words). */
const pieces = [
  ...new Set(secretForms(KEY).flatMap((f) => Array.from({ length: f.length - 5 }, (_, i) => f.slice(i, i + 6))))
]

describe('a key with characters JSON and URLs escape', () => {
  it.each(Object.keys(ECHO))('%s: no form of the key, whole or in part, in the error', async (route) => {
    const client = createServiceClient({ baseUrl: url, apiKey: KEY, retry: { retries: 0 } })
    try {
      const e = await client.getProject(route).then(
        () => undefined,
        (err: unknown) => err
      )
      expect(e).toBeInstanceOf(ServiceError)
      const error = e as ServiceError
      for (const text of [error.message, error.stack ?? '', JSON.stringify(error), JSON.stringify(error.toInfo())]) {
        const leaked = pieces.filter((p) => text.includes(p))
        expect(leaked, text).toEqual([])
      }
      if (route !== 'parsemsg') expect(error.message).toMatch(/\[api key/)
    } finally {
      await client.close()
    }
  })
})
