// package.json says which Node does what: `engines` is the floor for the `agent-tray` command
// (what `npm install -g` runs), `devEngines` the floor for building and launching the app, which
// electron's installer, @electron/get and @electron/rebuild set. Both follow what the
// dependencies themselves declare, so neither can promise more than is true.
import fs from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }
  devEngines: { runtime: { name: string; version: string; onFail: string } }
  dependencies: Record<string, string>
}

function declaredFloor(name: string): semver.SemVer | null {
  const engines = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      engines?: { node?: string }
    }
  ).engines
  return engines?.node ? semver.minVersion(engines.node) : null
}

describe('which Node package.json promises', () => {
  it("the command's floor (engines) is at or above every production dependency's", () => {
    const floor = semver.minVersion(pkg.engines.node)!
    for (const name of Object.keys(pkg.dependencies)) {
      const theirs = declaredFloor(name)
      if (theirs) expect(semver.gte(floor, theirs), `${name} needs ${theirs.version}`).toBe(true)
    }
  })

  it("the app's build floor (devEngines) is what Electron's installer and rebuild declare", () => {
    expect(pkg.devEngines.runtime.name).toBe('node')
    const floor = semver.minVersion(pkg.devEngines.runtime.version)!
    const needed = ['electron', '@electron/get', '@electron/rebuild']
      .map(declaredFloor)
      .filter((v): v is semver.SemVer => v !== null)
    expect(needed).toHaveLength(3)
    expect(floor.version).toBe(semver.sort(needed).at(-1)!.version)
  })
})
