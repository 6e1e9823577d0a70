// The log as the app writes it, through electron-log's real file transport (its Node build: the
// main build is the same logger with Electron's paths): a key planted in an error, a URL and a
// server's message never reaches the file, in any of the forms the redaction knows.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import electronLog from 'electron-log/node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ServiceError } from '../client/service-error'
import { createSessionSecretStore } from '../secrets'
import { redactSecrets } from '../secrets/redact'
import { rememberKeys } from './known-keys'
import { configureLog, type ElectronLogLike, entryText, MAX_ENTRY_LENGTH } from './log-file'
import { catchUnexpected } from './unexpected'

const KEY = 'sk-live-PLANTED-0123456789abcdef'

let dir: string
let n = 0
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-log-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function fileLogger(maxBytes?: number, file = join(dir, 'main.log')) {
  const log = electronLog.create({ logId: `test-${n++}` }) as unknown as ElectronLogLike & typeof electronLog
  log.transports.console.level = false
  log.transports.file.resolvePathFn = () => file
  const keys = rememberKeys(createSessionSecretStore('test'))
  const path = configureLog(log, {
    redact: (text) => redactSecrets(text, keys.list()),
    ...(maxBytes ? { maxBytes } : {})
  })
  return { log, keys, path }
}

/** electron-log writes asynchronously; wait until the file holds `lines` entries. */
async function fileText(path: string, lines: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = await readFile(path, 'utf8').catch(() => '')
    if (text.split('\n').filter((l) => l.startsWith('[')).length >= lines) return text
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('the log file did not fill')
}

describe.skipIf(process.platform === 'win32')("the log file's modes", () => {
  it('is 0600 in a 0700 directory, new or left 0644/0755 by an earlier version', async () => {
    const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777
    const fresh = join(dir, 'logs', 'main.log')
    const { log, path } = fileLogger(undefined, fresh)
    log.info('hello')
    await fileText(path, 1)
    expect(await mode(fresh)).toBe(0o600)
    expect(await mode(join(dir, 'logs'))).toBe(0o700)

    const old = join(dir, 'old', 'main.log')
    await mkdir(join(dir, 'old'), { mode: 0o755 })
    await chmod(join(dir, 'old'), 0o755)
    await writeFile(old, 'earlier\n', { mode: 0o644 })
    await chmod(old, 0o644)
    fileLogger(undefined, old)
    expect(await mode(old)).toBe(0o600)
    expect(await mode(join(dir, 'old'))).toBe(0o700)
  })
})

describe('the log file', () => {
  it('takes every key the store has seen out of errors, URLs and server messages, keeping the stack', async () => {
    const { log, keys, path } = fileLogger()
    await keys.store.set('c1', KEY)
    const error = new ServiceError('auth', `The server said: invalid key ${KEY}`, { status: 401 })
    log.error('poll failed:', error)
    log.info(`GET https://agents.example.com/projects?api_key=${KEY}`)
    log.warn('server message', { message: `key ${KEY} revoked`, nested: { echo: KEY } })
    log.info(new Error(`thrown with ${KEY}`))
    const text = await fileText(path, 4)
    expect(path).toBe(join(dir, 'main.log'))
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('PLANTED')
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(5)
    expect(text).toMatch(/\[error\] poll failed: ServiceError: The server said: invalid key \[redacted\]\n\s+at /)
    expect(text).toMatch(/\[info\] +GET https:\/\/agents.example.com\/projects\?api_key=\[redacted\]\n/)
  })

  it('takes a key out in the forms a server echoes it: JSON-escaped and URL-encoded', async () => {
    const { log, keys, path } = fileLogger()
    const odd = 'k/y+z"PLANTED&<1234>'
    await keys.store.set('c1', odd)
    log.warn(`server said ${JSON.stringify({ error: `bad key ${odd}` })}`)
    log.warn(`redirected to https://x.example/cb?key=${encodeURIComponent(odd)}`)
    const text = await fileText(path, 2)
    expect(text).not.toContain('PLANTED')
    expect(text).toContain('{"error":"bad key [redacted]"}')
    expect(text).toContain('cb?key=[redacted]')
  })

  it('remembers a key read from the store as well as one saved', async () => {
    const inner = createSessionSecretStore('test')
    await inner.set('c1', KEY)
    const keys = rememberKeys(inner)
    expect(keys.list()).toEqual([])
    expect(await keys.store.get('c1')).toBe(KEY)
    expect(keys.list()).toEqual([KEY])
    keys.add('demo-key-1234')
    expect(keys.list()).toEqual([KEY, 'demo-key-1234'])
  })

  it('writes out control characters but keeps a stack on its lines', () => {
    expect(entryText(['name \u001b]52;c;aGk=\u0007 end'])).toBe('name \\u001b]52;c;aGk=\\u0007 end')
    expect(entryText(['a\n  at b\tc'])).toBe('a\n  at b\tc')
    expect(entryText(['x'.repeat(MAX_ENTRY_LENGTH + 10)])).toHaveLength(MAX_ENTRY_LENGTH)
  })

  it('rotates at its size, keeping one old file', async () => {
    const { log, path } = fileLogger(4 * 1024)
    for (let i = 0; i < 40; i++) log.info(`line ${i} ${'x'.repeat(200)}`)
    await fileText(path, 1)
    for (let i = 0; i < 50 && !(await readdir(dir)).includes('main.old.log'); i++)
      await new Promise((r) => setTimeout(r, 20))
    expect((await readdir(dir)).sort()).toEqual(['main.log', 'main.old.log'])
  })
})

describe('unexpected errors in the main process', () => {
  it('are logged with their stack, and the process goes on', async () => {
    const { spawn } = await import('node:child_process')
    // A child process: an uncaught exception there must not end it.
    const script = `
      const { catchUnexpected } = await import(${JSON.stringify(new URL('./unexpected.ts', import.meta.url).href)})
      catchUnexpected(process, (what, e) => console.log('LOGGED', what, e.stack.split('\\n')[0], e.stack.includes('at ')))
      setTimeout(() => { throw new Error('boom') }, 0)
      setTimeout(() => Promise.reject(new Error('rejected')), 10)
      setTimeout(() => console.log('STILL RUNNING'), 50)`
    const out = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let text = ''
      child.stdout.on('data', (d: Buffer) => (text += d.toString()))
      child.stderr.on('data', (d: Buffer) => (text += d.toString()))
      child.on('close', (code) => resolve(`${text}EXIT ${code}`))
    })
    expect(out).toContain('LOGGED uncaught exception Error: boom true')
    expect(out).toContain('LOGGED unhandled rejection Error: rejected true')
    expect(out).toContain('STILL RUNNING')
    expect(out).toContain('EXIT 0')
    expect(typeof catchUnexpected).toBe('function')
  })
})
