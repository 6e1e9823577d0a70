// The packaging config (electron-builder.yml), read as electron-builder reads it: what the macOS
// app is signed with, what is shipped, and where installed copies look for updates.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import yaml from 'js-yaml'
import { minimatch } from 'minimatch'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

/** The `key: value` lines of one top-level section of electron-builder.yml (a flat one, as `mac` is). */
function section(name: string): Record<string, string> {
  const lines = fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8').split('\n')
  const start = lines.indexOf(`${name}:`)
  expect(start, `no ${name}: section`).toBeGreaterThan(-1)
  const out: Record<string, string> = {}
  for (const line of lines.slice(start + 1)) {
    if (line !== '' && !line.startsWith(' ')) break
    const m = /^ {2}([A-Za-z]+): *(\S.*)$/.exec(line)
    if (m) out[m[1]!] = m[2]!
  }
  return out
}

/** The keys set to true in a plist's top-level dict. */
function trueKeys(file: string): string[] {
  const xml = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '')
  expect(xml).toMatch(
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<!DOCTYPE plist [^>]*>\s*<plist version="1\.0">\s*<dict>[\s\S]*<\/dict>\s*<\/plist>\s*$/
  )
  const entries = [...xml.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)]
  const keys = [...xml.matchAll(/<key>/g)]
  expect(entries).toHaveLength(keys.length)
  return entries.filter((e) => e[2] === 'true').map((e) => e[1]!)
}

describe('macOS signing', () => {
  const mac = section('mac')

  it('uses the hardened runtime, with our entitlements for the app and for the helpers', () => {
    expect(mac.hardenedRuntime).toBe('true')
    expect(mac.entitlements).toBe('resources/entitlements.mac.plist')
    expect(mac.entitlementsInherit).toBe('resources/entitlements.mac.plist')
  })

  it('asks for JIT only: no disable-library-validation, no allow-unsigned-executable-memory', () => {
    const keys = trueKeys(mac.entitlements ?? '')
    expect(keys).toEqual(['com.apple.security.cs.allow-jit'])
    expect(keys).not.toContain('com.apple.security.cs.disable-library-validation')
    expect(keys).not.toContain('com.apple.security.cs.allow-unsigned-executable-memory')
  })
})

/** electron-builder.yml as electron-builder reads it. */
function builderConfig(): {
  files: string[]
  mac: { target: string[] }
  electronFuses: Record<string, boolean>
  publish: { provider: string }
} {
  return yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as never
}

/** Whether electron-builder's `files` patterns ship a path: the last pattern that matches decides. */
function ships(patterns: readonly string[], file: string): boolean {
  let shipped = false
  for (const p of patterns) {
    const negated = p.startsWith('!')
    if (minimatch(file, negated ? p.slice(1) : p, { dot: true })) shipped = !negated
  }
  return shipped
}

describe('what is packaged', () => {
  it("ships the app's main, preload and page, and not the command's or the benchmarks' bundles", () => {
    const { files } = builderConfig()
    for (const file of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json'])
      expect(ships(files, file), file).toBe(true)
    for (const file of ['out/cli/main.js', 'out/bench/scale-worker.js', 'out/main/index.js.map'])
      expect(ships(files, file), file).toBe(false)
  })

  it('builds a zip beside the dmg on macOS, the one MacUpdater installs from', () => {
    expect(builderConfig().mac.target).toEqual(expect.arrayContaining(['dmg', 'zip']))
  })

  it('re-signs ad hoc after flipping the fuses, so a build without a Developer ID still launches', () => {
    expect(builderConfig().electronFuses.resetAdHocDarwinSignature).toBe(true)
  })
})

describe('the update feed (scripts/package.mjs)', () => {
  /** Runs the packaging step's check from a copy of the project that is not a clone of anything. */
  function check(args: string[], packageJson: Record<string, unknown> = {}): { code: number | null; err: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-package-'))
    try {
      fs.mkdirSync(path.join(dir, 'scripts'))
      fs.copyFileSync(path.join(ROOT, 'scripts/package.mjs'), path.join(dir, 'scripts/package.mjs'))
      fs.copyFileSync(path.join(ROOT, 'electron-builder.yml'), path.join(dir, 'electron-builder.yml'))
      const pkg = {
        ...(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>),
        ...packageJson
      }
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg))
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'))
      const r = spawnSync(process.execPath, ['scripts/package.mjs', '--linux', '--check-only', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', GIT_CEILING_DIRECTORIES: path.dirname(dir) }
      })
      return { code: r.status, err: r.stderr }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }

  it('fails a build that would ship with no update feed, instead of warning', () => {
    const r = check([])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/no update feed/)
  })

  it("takes the GitHub owner and repo from the build's arguments or from package.json's repository", () => {
    expect(check(['-c.publish.owner=acme', '-c.publish.repo=agent-tray']).code).toBe(0)
    expect(check([], { repository: { type: 'git', url: 'git+https://github.com/acme/agent-tray.git' } }).code).toBe(0)
  })

  it('refuses a generic feed over plain http, and takes it over https', () => {
    const http = check(['-c.publish.provider=generic', '-c.publish.url=http://updates.example.com/agent-tray/'])
    expect(http.code).toBe(1)
    expect(http.err).toMatch(/must use https/)
    expect(check(['-c.publish.provider=generic', '-c.publish.url=https://updates.example.com/agent-tray/']).code).toBe(
      0
    )
  })

  it('refuses a GitHub feed over plain http, and takes one that says https', () => {
    const http = check(['-c.publish.owner=acme', '-c.publish.repo=agent-tray', '-c.publish.protocol=http'])
    expect(http.code).toBe(1)
    expect(http.err).toMatch(/GitHub update feed must use https, not http/)
    expect(check(['-c.publish.owner=acme', '-c.publish.repo=agent-tray', '-c.publish.protocol=https']).code).toBe(0)
  })

  it('refuses a publish token, which would be written into every installed copy, and never prints it', () => {
    for (const args of [
      ['-c.publish.owner=acme', '-c.publish.repo=agent-tray', '-c.publish.token=ghp_secret123'],
      [
        '-c.publish.provider=generic',
        '-c.publish.url=https://updates.example.com/agent-tray/',
        '-c.publish.token=ghp_secret123'
      ],
      ['-c.linux.publish.owner=acme', '-c.linux.publish.repo=agent-tray', '-c.linux.publish.token=ghp_secret123']
    ]) {
      const r = check(args)
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.err).toMatch(/publish\.token.*app-update\.yml/)
      expect(r.err).not.toContain('ghp_secret123')
    }
  })

  it("reads the arguments as electron-builder does: --config spelled out, values after a space, a platform's own publish", () => {
    const spelledOut = check([
      '--config.publish.provider',
      'generic',
      '--config.publish.url',
      'http://updates.example.com/agent-tray/',
      '-c.publish.owner=acme',
      '-c.publish.repo=agent-tray'
    ])
    expect(spelledOut.code).toBe(1)
    expect(spelledOut.err).toMatch(/must use https/)
    const linuxOnly = check([
      '-c.linux.publish.provider=generic',
      '-c.linux.publish.url=http://updates.example.com/agent-tray/',
      '-c.publish.owner=acme',
      '-c.publish.repo=agent-tray'
    ])
    expect(linuxOnly.code).toBe(1)
    expect(linuxOnly.err).toMatch(/must use https/)
    expect(
      check(['-c.linux.publish.provider=generic', '-c.linux.publish.url=https://updates.example.com/agent-tray/']).code
    ).toBe(0)
  })
})
