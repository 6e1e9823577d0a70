// What the packaged macOS app is signed with (electron-builder.yml), read as electron-builder reads
// it: the hardened runtime on, and one minimal entitlements file for the app and every helper.
import fs from 'node:fs'
import path from 'node:path'
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
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<!DOCTYPE plist [^>]*>\s*<plist version="1\.0">\s*<dict>[\s\S]*<\/dict>\s*<\/plist>\s*$/)
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
