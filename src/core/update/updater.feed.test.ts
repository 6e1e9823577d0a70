// electron-updater's own logic, outside Electron: a real AppImageUpdater (the Linux updater) reads
// app-update.yml, fetches latest-linux.yml from a feed served here over loopback, compares
// versions, downloads the file with progress and checks its sha512, driven by createUpdater.
// Not covered here (it needs Electron or an installed app): Electron's net module (the app's
// proxy settings), quitAndInstall (running an installer, relaunching) and
// macOS (Squirrel.Mac through Electron's native autoUpdater).
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import {
  type ClientRequest,
  createServer,
  type IncomingMessage,
  request,
  type RequestOptions,
  type Server
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { configureRequestOptions, configureRequestUrl, type DownloadOptions, HttpExecutor } from 'builder-util-runtime'
import { AppImageUpdater } from 'electron-updater'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { UpdateState } from '../../shared/update'
import { systemClock } from '../util/clock'
import { type AppUpdaterLike, createUpdater } from './updater'

/**
 * electron-updater's HTTP over Node's http module instead of Electron's net: `download` as
 * ElectronHttpExecutor writes it, on the base class's own doDownload (redirects, sha512, progress).
 */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback)
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers || undefined, redirect: 'manual' }
      configureRequestUrl(url, requestOptions)
      configureRequestOptions(requestOptions)
      const self = this as unknown as { doDownload(o: unknown, d: unknown, redirects: number): void }
      self.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error: Error | null) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null
        },
        0
      )
    })
  }
}

interface Feed {
  url: string
  requests: string[]
  close(): Promise<void>
}

/** latest-linux.yml and its AppImage, the file sent in slices so progress is reported. */
async function serveFeed(options: {
  version: string
  file: Buffer
  sha512?: string
  missing?: boolean
}): Promise<Feed> {
  const sha512 = options.sha512 ?? createHash('sha512').update(options.file).digest('base64')
  const name = `Agent-Tray-${options.version}.AppImage`
  const yml = [
    `version: ${options.version}`,
    'files:',
    `  - url: ${name}`,
    `    sha512: ${sha512}`,
    `    size: ${options.file.length}`,
    `path: ${name}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-20T10:00:00.000Z'",
    ''
  ].join('\n')
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    if (!options.missing && req.url?.startsWith('/latest-linux.yml')) {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml)
    } else if (!options.missing && req.url === `/${name}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(options.file.length) })
      const slices = 4
      const size = Math.ceil(options.file.length / slices)
      let i = 0
      const next = (): void => {
        if (i >= slices) return void res.end()
        res.write(options.file.subarray(i * size, (i + 1) * size))
        i++
        setTimeout(next, 250)
      }
      next()
    } else {
      res.writeHead(404).end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

let dir: string
let savedAppImage: string | undefined
/** What electron-updater asked to run when the app quits (Electron's app 'quit' event). */
let quitHandlers: ((exitCode: number) => void)[]
beforeEach(async () => {
  quitHandlers = []
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-update-'))
  savedAppImage = process.env.APPIMAGE
  // The running AppImage, as the updater expects to find it.
  process.env.APPIMAGE = join(dir, 'Agent-Tray-1.0.0.AppImage')
  await writeFile(process.env.APPIMAGE, 'old version')
})
afterEach(async () => {
  if (savedAppImage === undefined) delete process.env.APPIMAGE
  else process.env.APPIMAGE = savedAppImage
  await rm(dir, { recursive: true, force: true })
})

/** A real AppImageUpdater as a packaged app 1.0.0 would have it, configured by app-update.yml. */
async function realUpdater(feedUrl: string): Promise<AppImageUpdater> {
  const configPath = join(dir, 'app-update.yml')
  // What electron-builder writes into resources/ for a generic feed (electron-builder.yml's publish).
  await writeFile(configPath, `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: agent-tray-updater\n`)
  const updater = new AppImageUpdater(undefined, {
    version: '1.0.0',
    name: 'agent-tray',
    isPackaged: true,
    appUpdateConfigPath: configPath,
    userDataPath: dir,
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {},
    quit: () => {},
    onQuit: (handler: (exitCode: number) => void) => void quitHandlers.push(handler)
  })
  ;(updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor()
  updater.logger = null
  // Not an AppImage: a differential download would fail and fall back anyway.
  updater.disableDifferentialDownload = true
  return updater
}

/** Runs a check through createUpdater and collects every state until `until` says stop. */
async function checkAndWait(updater: AppImageUpdater, until: (s: UpdateState) => boolean): Promise<UpdateState[]> {
  const states: UpdateState[] = []
  const log: string[] = []
  await new Promise<void>((resolve, reject) => {
    const timeout = setTimeout(
      () => reject(new Error(`no end state; saw ${JSON.stringify(states)} ${log.join(' | ')}`)),
      15_000
    )
    const u = createUpdater({
      updater: updater as unknown as AppUpdaterLike,
      enabled: true,
      clock: systemClock,
      log: (m) => log.push(m),
      onChange: (s) => {
        states.push(s)
        if (until(s)) {
          clearTimeout(timeout)
          u.stop()
          resolve()
        }
      }
    })
    u.checkNow()
  })
  return states
}

describe('updates against a local feed (electron-updater outside Electron)', () => {
  let feed: Feed | null = null
  afterEach(async () => {
    await feed?.close()
    feed = null
  })

  it('finds a newer version, downloads it in the background with progress, verifies it, and waits', async () => {
    const file = randomBytes(256 * 1024)
    feed = await serveFeed({ version: '1.1.0', file })
    const updater = await realUpdater(feed.url)
    const states = await checkAndWait(updater, (s) => s.phase === 'ready' || s.phase === 'error')
    const phases = states.map((s) => s.phase)
    expect(phases[0]).toBe('checking')
    expect(phases).toContain('available')
    expect(phases).toContain('downloading')
    expect(states[states.length - 1]).toEqual({ phase: 'ready', version: '1.1.0' })
    const progress = states.filter((s) => s.phase === 'downloading')
    expect(progress[progress.length - 1]).toMatchObject({
      version: '1.1.0',
      transferredBytes: file.length,
      totalBytes: file.length,
      percent: 100
    })
    // The verified download waits in the cache for a restart; nothing was installed.
    const pending = join(dir, 'cache', 'agent-tray-updater', 'pending')
    const names = await readdir(pending)
    const downloaded = names.find((n) => n.endsWith('.AppImage'))
    expect(downloaded).toBeDefined()
    expect((await readFile(join(pending, downloaded!))).equals(file)).toBe(true)
    expect(await readFile(process.env.APPIMAGE!, 'utf8')).toBe('old version')
    expect(feed.requests.some((r) => r.startsWith('/latest-linux.yml'))).toBe(true)
  })

  it('a downloaded update is installed when the app quits (autoInstallOnAppQuit), as the README says', async () => {
    // electron-updater runs the new AppImage once installed: here a script that does nothing.
    const file = Buffer.from('exit 0\n')
    feed = await serveFeed({ version: '1.1.0', file })
    const updater = await realUpdater(feed.url)
    const states = await checkAndWait(updater, (s) => s.phase === 'ready' || s.phase === 'error')
    expect(states[states.length - 1]).toEqual({ phase: 'ready', version: '1.1.0' })
    expect(await readFile(process.env.APPIMAGE!, 'utf8')).toBe('old version')
    expect(quitHandlers).toHaveLength(1)
    quitHandlers[0]!(0)
    expect(await readdir(dir)).not.toContain('Agent-Tray-1.0.0.AppImage')
    expect((await readFile(join(dir, 'Agent-Tray-1.1.0.AppImage'))).equals(file)).toBe(true)
  })

  it('an older version in the feed is never downloaded, even on an updater that allowed downgrades', async () => {
    feed = await serveFeed({ version: '0.9.0', file: randomBytes(1024) })
    const updater = await realUpdater(feed.url)
    updater.allowDowngrade = true
    const states = await checkAndWait(updater, (s) => s.phase !== 'checking')
    expect(updater.allowDowngrade).toBe(false)
    expect(states[states.length - 1]).toMatchObject({ phase: 'idle' })
    expect(feed.requests.some((r) => r.endsWith('.AppImage'))).toBe(false)
  })

  it('the same version is up to date: nothing is downloaded', async () => {
    feed = await serveFeed({ version: '1.0.0', file: randomBytes(1024) })
    const states = await checkAndWait(await realUpdater(feed.url), (s) => s.phase !== 'checking')
    expect(states[states.length - 1]).toMatchObject({ phase: 'idle', checks: true, offline: false })
    expect(feed.requests.some((r) => r.endsWith('.AppImage'))).toBe(false)
  })

  it('a download whose checksum does not match is an error, and nothing is left ready', async () => {
    const file = randomBytes(4096)
    feed = await serveFeed({
      version: '1.1.0',
      file,
      sha512: createHash('sha512').update('something else').digest('base64')
    })
    const states = await checkAndWait(await realUpdater(feed.url), (s) => s.phase === 'ready' || s.phase === 'error')
    expect(states[states.length - 1]).toMatchObject({ phase: 'error', message: expect.stringMatching(/damaged/) })
    expect(states.some((s) => s.phase === 'ready')).toBe(false)
  })

  it('a feed without a release is an error in a few words, with the next try planned', async () => {
    feed = await serveFeed({ version: '1.1.0', file: Buffer.alloc(0), missing: true })
    const states = await checkAndWait(await realUpdater(feed.url), (s) => s.phase === 'error' || s.phase === 'idle')
    expect(states[states.length - 1]).toMatchObject({
      phase: 'error',
      message: 'no release was found on the update server',
      nextCheckAt: expect.any(String)
    })
  })

  it('an unreachable server is an error that says so', async () => {
    const closed = await serveFeed({ version: '1.1.0', file: Buffer.alloc(0) })
    await closed.close()
    const states = await checkAndWait(await realUpdater(closed.url), (s) => s.phase === 'error' || s.phase === 'idle')
    expect(states[states.length - 1]).toMatchObject({
      phase: 'error',
      message: 'the update server could not be reached'
    })
  })
})
