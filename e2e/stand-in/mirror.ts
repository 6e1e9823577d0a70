// The loopback mirror that serves the stand-in as "the Electron binary" to electron's own
// installer (ELECTRON_MIRROR, with electron_use_remote_checksums for the SHASUMS256.txt it
// serves), and the folders a test launches it from. Nothing here is shipped.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
export const PROJECT_ROOT = resolve(here, '../..')
export const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version
const ZIP_NAME = `electron-v${ELECTRON_VERSION}-linux-${process.arch}.zip`

/** The stand-in as Electron's release zip lays out its binary: `electron`, `version`, `resources/`. */
export async function buildStandInZip(workDir: string): Promise<string> {
  const dir = join(workDir, 'zip-contents')
  mkdirSync(join(dir, 'resources'), { recursive: true })
  await build({
    entryPoints: [join(here, 'boot.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: join(dir, 'stand-in.cjs'),
    logLevel: 'warning'
  })
  // A shell script where Electron has its binary: what electron-vite and a packaged app launch.
  writeFileSync(
    join(dir, 'electron'),
    '#!/bin/sh\nAGENT_TRAY_STAND_IN_EXE_DIR="$(dirname "$(readlink -f "$0")")" exec node "$(dirname "$(readlink -f "$0")")/stand-in.cjs" "$@"\n'
  )
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'version'), `v${ELECTRON_VERSION}`)
  writeFileSync(join(dir, 'resources', 'README'), 'The stand-in Electron (e2e/stand-in).\n')
  const zip = join(workDir, ZIP_NAME)
  execFileSync('zip', ['-qr', zip, '.'], { cwd: dir })
  return zip
}

export interface Mirror {
  url: string
  /** The paths asked of the mirror, in order. */
  requests: string[]
  close(): Promise<void>
}

export async function startMirror(zip: string): Promise<Mirror> {
  const bytes = readFileSync(zip)
  const sum = createHash('sha256').update(bytes).digest('hex')
  const files = new Map<string, Buffer>([
    [`/v${ELECTRON_VERSION}/${ZIP_NAME}`, bytes],
    [`/v${ELECTRON_VERSION}/SHASUMS256.txt`, Buffer.from(`${sum} *${ZIP_NAME}\n`)]
  ])
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://mirror').pathname
    requests.push(path)
    const body = files.get(path)
    if (!body) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise((done) => server.close(() => done())) }
}

/**
 * A copy of the project as a fresh clone has it, with `node_modules` borrowed from this checkout:
 * each package linked, except those the demo's own steps write to or resolve Electron from
 * (`electron`, without any binary; `electron-vite`; `.bin`), which are copied.
 */
export function scratchProject(dest: string): void {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8'
  })
  for (const file of listed.split('\0').filter(Boolean)) {
    if (!existsSync(join(PROJECT_ROOT, file))) continue
    mkdirSync(join(dest, file, '..'), { recursive: true })
    cpSync(join(PROJECT_ROOT, file), join(dest, file))
  }
  const from = join(PROJECT_ROOT, 'node_modules')
  const to = join(dest, 'node_modules')
  mkdirSync(to)
  const copied = new Set(['electron', 'electron-vite', '.bin'])
  for (const entry of readdirSync(from)) {
    if (copied.has(entry)) continue
    symlinkSync(join(from, entry), join(to, entry))
  }
  cpSync(join(from, '.bin'), join(to, '.bin'), { recursive: true, verbatimSymlinks: true })
  cpSync(join(from, 'electron-vite'), join(to, 'electron-vite'), { recursive: true, verbatimSymlinks: true })
  cpSync(join(from, 'electron'), join(to, 'electron'), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !['dist', 'path.txt'].includes(relative(join(from, 'electron'), src))
  })
}

/**
 * A folder laid out as electron-builder lays out a Linux app: the executable, and
 * resources/app with package.json, the built `out/` and the production dependencies only
 * (copied, so nothing resolves a devDependency from this checkout), plus the extraResources.
 */
export function packagedLayout(dest: string, zip: string, builtProject: string): string {
  mkdirSync(dest, { recursive: true })
  execFileSync('unzip', ['-q', zip, '-d', dest])
  const app = join(dest, 'resources', 'app')
  mkdirSync(app, { recursive: true })
  cpSync(join(builtProject, 'package.json'), join(app, 'package.json'))
  cpSync(join(builtProject, 'out'), join(app, 'out'), { recursive: true })
  const production = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8'
  })
  const modules = join(PROJECT_ROOT, 'node_modules') + '/'
  const topLevel = new Set<string>()
  for (const line of production.split('\n')) {
    if (!line.startsWith(modules)) continue
    const parts = line.slice(modules.length).split('/')
    topLevel.add(parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!)
  }
  for (const name of topLevel)
    cpSync(join(modules, name), join(app, 'node_modules', name), { recursive: true, verbatimSymlinks: true })
  cpSync(join(builtProject, 'resources', 'tray'), join(dest, 'resources', 'tray'), { recursive: true })
  cpSync(join(builtProject, 'resources', 'icon.png'), join(dest, 'resources', 'icon.png'))
  return join(dest, 'electron')
}

export function removeQuietly(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
