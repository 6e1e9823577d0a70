// checkKey, row by row of its decision table (key-check.ts), against real HTTP servers: the
// reference service, and tiny servers that answer the way other services do.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import { createServiceClient } from './client'
import { decideKeyCheck, KEY_CHECK_PROJECT_ID, madeUpKeyLike } from './key-check'
import { ServiceError } from './service-error'

const KEY = 'sk-live-4f9A1c77E0d24b5e'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

describe('decideKeyCheck', () => {
  it.each([
    [401, 401, 'rejected'],
    [403, 401, 'rejected'],
    [401, 404, 'rejected'],
    [404, 401, 'accepted'],
    [404, 403, 'accepted'],
    [400, 401, 'accepted'],
    [200, 401, 'accepted'],
    [404, 400, 'accepted'],
    [404, 404, 'inconclusive'],
    [400, 400, 'inconclusive'],
    [200, 200, 'inconclusive']
  ] as const)('our key %i, a made-up key %i: %s', (ours, madeUp, verdict) => {
    expect(decideKeyCheck(ours, madeUp)).toBe(verdict)
  })
})

/** ROT13 on letters, ROT5 on digits: what `tr` would undo. */
const rot = (key: string): string =>
  key
    .replace(/[a-z]/g, (c) => String.fromCharCode(0x61 + ((c.charCodeAt(0) - 0x61 + 13) % 26)))
    .replace(/[A-Z]/g, (c) => String.fromCharCode(0x41 + ((c.charCodeAt(0) - 0x41 + 13) % 26)))
    .replace(/[0-9]/g, (c) => String((c.charCodeAt(0) - 0x30 + 5) % 10))

describe('madeUpKeyLike', () => {
  it('keeps the length, each character’s kind (lower, upper, digit) and the separators', () => {
    const made = madeUpKeyLike(KEY)
    expect(made).toHaveLength(KEY.length)
    for (let i = 0; i < KEY.length; i++) {
      const [a, b] = [KEY[i]!, made[i]!]
      for (const kind of [/[a-z]/, /[A-Z]/, /[0-9]/]) expect(kind.test(b)).toBe(kind.test(a))
      if (!/[a-zA-Z0-9]/.test(a)) expect(b).toBe(a)
    }
    expect(madeUpKeyLike('-_.~')).not.toBe('-_.~')
  })

  it('is random and fresh on every call: nothing turns it back into the key', () => {
    const made = Array.from({ length: 20 }, () => madeUpKeyLike(KEY))
    expect(new Set(made).size).toBe(made.length)
    for (const m of made) {
      expect(m).not.toBe(KEY)
      expect(rot(m)).not.toBe(KEY)
    }
    // Letters and digits drawn evenly: over many keys every letter shows up at one position.
    const firsts = new Set(Array.from({ length: 600 }, () => madeUpKeyLike(KEY)[0]))
    expect(firsts.size).toBe(26)
  })

  it('never the key itself, even for a one-letter key', () => {
    let draws = 0
    // The first draw picks the key's own letter; a second is drawn.
    expect(madeUpKeyLike('c', () => (draws++ === 0 ? 2 : 7))).toBe('h')
  })
})

let reference: ReferenceService
beforeAll(async () => {
  reference = await startReferenceService({ apiKey: KEY, port: 0, seed: 5, manualClock: true })
})
afterAll(async () => {
  await reference.close()
})

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }
})

/** A service that answers with `answer(key, projectId)`; records the ids it was asked about. */
async function service(answer: (key: string, projectId: string) => number, asked: string[] = []): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const id = decodeURIComponent((req.url ?? '').replace(/^\/projects\//, ''))
    asked.push(id)
    const status = answer(String(req.headers['x-api-key']), id)
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(
      status < 300 ? JSON.stringify({ id }) : JSON.stringify({ message: [`answer ${status}`], statusCode: status })
    )
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function check(baseUrl: string, apiKey = KEY): Promise<boolean | ServiceError> {
  const client = createServiceClient({ baseUrl, apiKey, retry: { retries: 0 } })
  try {
    return await client.checkKey().catch((e: unknown) => {
      expect(e).toBeInstanceOf(ServiceError)
      return e as ServiceError
    })
  } finally {
    await client.close()
  }
}

describe('checkKey over HTTP', () => {
  it('the reference service: our key 404, a made-up key 401 → accepted; a wrong key → rejected', async () => {
    expect(await check(reference.url)).toBe(true)
    expect(await check(reference.url, 'sk-live-0000000000000000')).toBe(false)
  })

  it('asks with the nil UUID, a well-formed id', async () => {
    const asked: string[] = []
    const url = await service((key) => (key === KEY ? 404 : 401), asked)
    expect(await check(url)).toBe(true)
    expect(asked).toEqual([KEY_CHECK_PROJECT_ID, KEY_CHECK_PROJECT_ID])
    expect(KEY_CHECK_PROJECT_ID).toMatch(UUID)
  })

  it('a service that checks the id is a UUID before the key: a good key is accepted, a wrong one rejected', async () => {
    const url = await service((key, id) => (!UUID.test(id) ? 400 : key === KEY ? 404 : 401))
    expect(await check(url)).toBe(true)
    expect(await check(url, 'sk-live-0000000000000000')).toBe(false)
  })

  it("a service that checks a key's format before the key: the made-up key has our key's format", async () => {
    const wellFormed = (key: string): boolean => /^sk-live-[0-9a-zA-Z]{16}$/.test(key)
    const url = await service((key) => (!wellFormed(key) ? 400 : key === KEY ? 404 : 401))
    expect(await check(url)).toBe(true)
    expect(await check(url, 'sk-live-0000000000000000')).toBe(false)
  })

  it('an error that quotes the made-up key is redacted like the key', async () => {
    const sent: string[] = []
    const url = await new Promise<string>((resolve) => {
      const server = createServer((req, res) => {
        const key = String(req.headers['x-api-key'])
        sent.push(key)
        if (key === KEY) return res.writeHead(404).end('{}')
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: `key ${key} is broken` }))
      })
      servers.push(server)
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
    })
    const e = await check(url)
    expect(e).toBeInstanceOf(ServiceError)
    const madeUp = sent[1]!
    expect(madeUp).not.toBe(KEY)
    expect((e as ServiceError).message).toContain('key [api key] is broken')
    expect(JSON.stringify(e)).not.toContain(madeUp)
    expect((e as ServiceError).message).not.toContain(madeUp)
  })

  it('a service that refuses our key with 403 → rejected', async () => {
    expect(await check(await service(() => 403))).toBe(false)
  })

  it('a service that answers 400 to an unknown id, after checking the key → accepted; a wrong key → rejected', async () => {
    const url = await service((key) => (key === KEY ? 400 : 401))
    expect(await check(url)).toBe(true)
    expect(await check(url, 'sk-live-0000000000000000')).toBe(false)
  })

  it('a service that hides what a made-up key cannot see (404) but answers our key → accepted', async () => {
    expect(await check(await service((key) => (key === KEY ? 200 : 404)))).toBe(true)
  })

  it('400 for any key: the key cannot be checked, and the error says so with the server’s words', async () => {
    const e = await check(await service(() => 400))
    expect(e).toBeInstanceOf(ServiceError)
    expect(e).toMatchObject({ kind: 'bad_request', status: 400 })
    expect((e as ServiceError).message).toMatch(
      /^The key could not be checked: http:\/\/127\.0\.0\.1:\d+ answers HTTP 400 to any key for a project that cannot exist\. Server said: answer 400$/
    )
  })

  it('404 for any key, or 200 for any key: nothing there looks like the service', async () => {
    for (const status of [404, 200]) {
      const url = await service(() => status)
      const e = await check(url)
      expect(e).toMatchObject({
        kind: 'not_found',
        message: `Nothing at ${url} looks like the service: check the URL.`
      })
    }
  })

  it('a busy or failing service is an error, not a verdict', async () => {
    expect(await check(await service((key) => (key === KEY ? 500 : 401)))).toMatchObject({ kind: 'server' })
    expect(await check(await service((key) => (key === KEY ? 429 : 401)))).toMatchObject({ kind: 'rate_limited' })
  })
})
