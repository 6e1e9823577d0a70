// Through the command, a gzip bomb (400 MiB of spaces in a few hundred KB, from a raw node:http
// server) is exit 6, invalid response, with the cap named: the client cuts it at 8 MiB.
import fs from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { EXIT } from './exit-codes'
import { makeRunner, tempDir } from './test-harness'

const KEY = 'key-bomb-cli-5e1d'
const member = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 })
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
  let count = 0
  const pump = () => {
    while (!res.destroyed && count < 400) {
      count += 1
      if (!res.write(member)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end()
  }
  pump()
})
let configDir: string

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  configDir = tempDir()
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  fs.rmSync(configDir, { recursive: true, force: true })
})

it('a 400 MiB gzip bomb is exit 6 (invalid response), the cap named', async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const run = makeRunner({ configDir, env: { AGENT_TRAY_BASE_URL: url, AGENT_TRAY_API_KEY: KEY } })
  const r = await run(['tasks', 'p1'])
  expect(r.code).toBe(EXIT.invalidResponse)
  expect(r.err).toMatch(/larger than 8192 KiB/)
})
